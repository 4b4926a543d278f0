#pragma once
// The bytes a TCP socket has received since it was opened (the kernel's TCP_INFO count), in a
// file of its own: <linux/tcp.h>, which has the field, and <netinet/tcp.h>, which httplib
// includes, cannot be included together.
#include <cstdint>
#include <optional>

namespace tilescope::net {

std::optional<uint64_t> tcp_bytes_received(int fd);

}  // namespace tilescope::net
