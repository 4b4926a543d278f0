// Session 48: how long one verify_product takes on seeded matrices (C left zero, so it does not verify; the time is
// the check's). Built against the core library of a build; run it with M N K.
//   g++ -O2 -std=c++20 -Iapp docs/results/session48/verify_time.cpp build/app/core/libtilescope_core.a -lpthread -o /tmp/vt
//   /tmp/vt 985 8361 8908     # this machine (2 cores, AMD EPYC): 28.5 s on 13a8e23's library, 2.2 s on af1c9ad's
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "core/device/matrix.h"

int main(int argc, char** argv) {
    using namespace tilescope;
    if (argc != 4) return 2;
    const int64_t M = atoll(argv[1]), N = atoll(argv[2]), K = atoll(argv[3]);
    const HostMatrix a = random_matrix("A", M, K, Layout::RowMajor), b = random_matrix("B", K, N, Layout::RowMajor);
    const HostMatrix c{M, N, Layout::RowMajor, std::vector<float>(static_cast<size_t>(M * N), 0.f)};
    const auto t0 = std::chrono::steady_clock::now();
    const Verification v = verify_product(a, b, c);
    std::printf("%.2f s, %lld elements checked\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                static_cast<long long>(v.checked_elements));
}
