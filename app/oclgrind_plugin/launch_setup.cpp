// Setting up a Run at kernelBegin. Depends on launch_setup.h (run.h), Oclgrind's Kernel
// and LLVM's IR; nothing depends on it but trace_plugin.cpp.
#include "launch_setup.h"

#include <oclgrind/Kernel.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/Memory.h>

#include <llvm/IR/Argument.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Value.h>

#include <algorithm>
#include <bit>

#include "oclgrind_lookups.h"

namespace tilescope::trace_plugin {
using oclgrind::AddrSpaceConstant;
using oclgrind::AddrSpaceGlobal;
using oclgrind::AddrSpaceLocal;

namespace {

// Size of one element of an OpenCL pointer parameter from its type name ("float*",
// "float4*", "const int*"); 4 when the name says nothing useful.
uint32_t element_size_of(std::string type) {
    if (auto star = type.find('*'); star != std::string::npos) type.resize(star);
    while (!type.empty() && type.back() == ' ') type.pop_back();
    if (auto sp = type.rfind(' '); sp != std::string::npos) type = type.substr(sp + 1);
    size_t digits = type.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(type[digits - 1]))) --digits;
    uint32_t lanes = 1;
    if (digits < type.size()) {
        lanes = static_cast<uint32_t>(std::stoul(type.substr(digits)));
        if (lanes == 3) lanes = 4;  // 3-vectors are stored as 4
        type.resize(digits);
    }
    static const std::map<std::string, uint32_t> scalar = {
        {"char", 1}, {"uchar", 1}, {"bool", 1}, {"short", 2}, {"ushort", 2}, {"half", 2}, {"int", 4},
        {"uint", 4}, {"float", 4}, {"long", 8}, {"ulong", 8}, {"double", 8}, {"size_t", 8}};
    auto it = scalar.find(type);
    return it == scalar.end() ? 4 : it->second * std::max(1u, lanes);
}

// Calls f(position in `groups`, linear index) for each of `groups` inside the launch.
template <class F> void for_each_group_in_launch(const std::vector<abi::Id3>& groups, const Run& run, F&& f) {
    for (size_t i = 0; i < groups.size(); ++i)
        if (is_group_of(groups[i], run.num_groups)) f(i, linear_group_index(groups[i], run.num_groups));
}

// An array declared [R][C] (or [D0][D1]..[C]) is R (the product of the outer extents)
// rows of words; the last extent times its element's width in words is a row, so
// float4 t[64][4] is 64 x 16. Parameters and 1D arrays stay one row.
void shape_as_rows(abi::LocalBufferInfo& info, const llvm::Value* value) {
    const auto* var = llvm::dyn_cast<llvm::GlobalVariable>(value);
    if (!var) return;
    const llvm::Type* t = var->getValueType();
    uint64_t rows = 1;
    while (const auto* outer = llvm::dyn_cast<llvm::ArrayType>(t)) {
        if (!llvm::isa<llvm::ArrayType>(outer->getElementType())) break;
        rows *= outer->getNumElements();
        t = outer->getElementType();
    }
    if (rows > 1 && info.bytes % (rows * 4) == 0) {
        info.rows = rows;
        info.cols = info.bytes / (rows * 4);
    }
}

}  // namespace

void read_launch_shape(Run& run, const oclgrind::KernelInvocation* invocation, const oclgrind::Memory* global_memory) {
    run.invocation = invocation;
    run.global_memory = global_memory;
    run.kernel = invocation->getKernel()->getName();
    run.work_dim = static_cast<uint32_t>(invocation->getWorkDim());
    const oclgrind::Size3 gs = invocation->getGlobalSize(), ls = invocation->getLocalSize(),
                          ng = invocation->getNumGroups();
    run.global_size = {gs.x, gs.y, gs.z};
    run.local_size = id3(ls);
    run.num_groups = id3(ng);
    run.total_groups = static_cast<uint64_t>(ng.x) * ng.y * ng.z;
    run.max_lanes = static_cast<uint32_t>(ls.x * ls.y * ls.z);
}

void settle_request_geometry(Run& run) {
    abi::Config& c = run.config;
    if (c.warp == 0) c.warp = 32;
    if (c.banks == 0) c.banks = 32;
    if (!std::has_single_bit(c.sector_bytes)) c.sector_bytes = 32;
    if (!std::has_single_bit(c.bank_bytes)) c.bank_bytes = 4;
    run.subgroups = (run.max_lanes + c.warp - 1) / c.warp;
    run.offset_mask = run.global_memory->extractOffset(~size_t(0));
    run.offset_bits = static_cast<unsigned>(std::popcount(run.offset_mask));
    run.sector_shift = static_cast<uint32_t>(std::countr_zero(c.sector_bytes));
}

void bind_buffer_parameters(Run& run) {
    const oclgrind::Kernel* kernel = run.invocation->getKernel();
    const llvm::Function* function = kernel->getFunction();
    for (unsigned i = 0; i < kernel->getNumArguments(); ++i) {
        const llvm::Argument* arg = function->getArg(i);
        const llvm::Type* type = arg->getType();
        if (!type->isPointerTy()) continue;
        const unsigned space = type->getPointerAddressSpace();
        if (space != AddrSpaceGlobal && space != AddrSpaceConstant) continue;
        size_t pointer = 0;
        for (auto it = kernel->values_begin(); it != kernel->values_end(); ++it)
            if (it->first == arg) pointer = it->second.getPointer();
        const oclgrind::Memory::Buffer* buffer = pointer ? run.global_memory->getBuffer(pointer) : nullptr;
        if (!buffer) continue;
        Slot s;
        s.name = kernel->getArgumentName(i).str();
        s.arg_index = static_cast<int32_t>(i);
        s.constant = space == AddrSpaceConstant;
        s.base = run.global_memory->extractOffset(pointer);
        s.element_size = element_size_of(kernel->getArgumentTypeName(i).str());
        for (const abi::BufferHint& h : run.config.buffers)
            if (h.name == s.name && h.element_size > 0) s.element_size = h.element_size;
        s.elements = buffer->size > s.base ? (buffer->size - s.base) / s.element_size : 0;
        const size_t id = run.global_memory->extractBuffer(pointer);
        s.memory_buffer = id;
        if (run.slot_of_buffer.size() <= id) run.slot_of_buffer.resize(id + 1, -1);
        if (run.slot_of_buffer[id] < 0) run.slot_of_buffer[id] = static_cast<int32_t>(run.slots.size());
        run.slots.push_back(std::move(s));
    }
    run.unbound_slot = static_cast<int32_t>(run.slots.size());
    Slot unbound;
    unbound.name = "(unbound)";
    run.slots.push_back(unbound);
    for (auto& s : run.slot_of_buffer)
        if (s < 0) s = run.unbound_slot;
}

void choose_groups_on_display(Run& run) {
    const std::vector<abi::Id3>& detail_groups = run.config.detail_groups;
    run.detail_of_group.assign(run.total_groups, -1);
    run.details.resize(detail_groups.size());
    run.detail_done.assign(detail_groups.size(), false);
    for_each_group_in_launch(detail_groups, run, [&](size_t i, uint64_t linear) {
        if (run.detail_of_group[linear] < 0) run.detail_of_group[linear] = static_cast<int32_t>(i);
    });
    run.early.assign(run.config.partial ? run.total_groups : 0, false);
    if (run.config.partial)
        for_each_group_in_launch(run.config.early_groups, run, [&](size_t, uint64_t linear) { run.early[linear] = true; });
}

void describe_local_buffers(Run& run) {
    const oclgrind::Kernel* kernel = run.invocation->getKernel();
    const std::string prefix = run.kernel + ".";
    for (auto it = kernel->values_begin(); it != kernel->values_end(); ++it) {
        const llvm::Type* type = it->first->getType();
        if (!type->isPointerTy() || type->getPointerAddressSpace() != AddrSpaceLocal) continue;
        std::string name = it->first->getName().str();
        if (name.rfind(prefix, 0) == 0) name = name.substr(prefix.size());
        run.local_index[it->first] = static_cast<int32_t>(run.local_buffers.size());
        abi::LocalBufferInfo info{name, it->second.size, 1, (it->second.size + 3) / 4};
        shape_as_rows(info, it->first);
        run.local_buffers.push_back(info);
    }
}

void order_local_buffers_by_name(Run& run) {
    // Oclgrind keeps the kernel's values keyed by address, so describe_local_buffers meets
    // them in an order that changes from run to run: sort by name (then size).
    std::vector<size_t> order(run.local_buffers.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const abi::LocalBufferInfo &x = run.local_buffers[a], &y = run.local_buffers[b];
        return x.name != y.name ? x.name < y.name : x.bytes < y.bytes;
    });
    std::vector<int32_t> new_index(order.size());
    std::vector<abi::LocalBufferInfo> sorted;
    for (size_t i = 0; i < order.size(); ++i) {
        new_index[order[i]] = static_cast<int32_t>(i);
        sorted.push_back(run.local_buffers[order[i]]);
    }
    run.local_buffers = std::move(sorted);
    for (auto& [value, index] : run.local_index) index = new_index[static_cast<size_t>(index)];
}

void start_clock(Run& run) {
    run.started = std::chrono::steady_clock::now();
    run.last_partial = run.started;  // the first snapshot without an early group comes an interval in
}

}  // namespace tilescope::trace_plugin
