#include "trace/native/text_writer.h"

#include <charconv>
#include <cstring>
#include <string_view>

#include "sim/core/error.h"
#include "trace/io/record_util.h"

namespace gms::trace {

namespace {

constexpr std::size_t kBufferBytes = 64 * 1024;
constexpr std::size_t kMaxRecordBytes = 1024;  // 32 * "0x" + 16 digits + ",", plus the fields

inline char* put_dec(char* p, std::uint64_t v) {
  return std::to_chars(p, p + 20, v).ptr;
}
inline char* put_sdec(char* p, std::int64_t v) {
  return std::to_chars(p, p + 20, v).ptr;
}
inline char* put_hex(char* p, std::uint64_t v) {
  *p++ = '0';
  *p++ = 'x';
  return std::to_chars(p, p + 16, v, 16).ptr;
}
inline char* put_str(char* p, std::string_view s) {
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

bool has_space(std::string_view s) {
  return s.find_first_of(" \t\r\n") != std::string_view::npos;
}

/// One #kernel line, without the newline.
std::string kernel_line(const KernelInfo& k, const std::string& file) {
  std::string line = "#kernel";
  if (k.params.empty()) {
    if (has_space(k.name) || has_space(k.arch))
      fail("{}: kernel {}: name and arch cannot contain whitespace in wtrace", file, k.id);
    line += fmt::format(" id={}", k.id);
    if (!k.name.empty()) line += fmt::format(" name={}", k.name);
    line += fmt::format(" grid={},{},{} block={},{},{} shmem={}", k.grid.x, k.grid.y, k.grid.z,
                        k.block.x, k.block.y, k.block.z, k.shmem_bytes);
    if (k.regs != 0) line += fmt::format(" regs={}", k.regs);
    if (k.flops != 0) line += fmt::format(" flops={}", k.flops);
    if (!k.arch.empty()) line += fmt::format(" arch={}", k.arch);
    return line;
  }
  bool has_id = false;
  for (const auto& [key, value] : k.params) {
    if (key.empty() || has_space(key) || key.find('=') != std::string::npos || has_space(value))
      fail("{}: kernel {}: parameter '{}={}' cannot be written in wtrace", file, k.id, key, value);
    has_id = has_id || key == "id";
    line += ' ';
    line += key;
    line += '=';
    line += value;
  }
  if (!has_id) fail("{}: kernel {}: params lack the required 'id' key", file, k.id);
  return line;
}

}  // namespace

TextWriter::TextWriter(std::unique_ptr<OutputStream> out)
    : out_(std::move(out)), buf_(kBufferBytes + kMaxRecordBytes) {
  static constexpr std::string_view kMagic = "#wtrace 1\n";
  out_->write(kMagic.data(), kMagic.size());
}

void TextWriter::flush() {
  out_->write(buf_.data(), len_);
  len_ = 0;
}

void TextWriter::begin_kernel(const KernelInfo& kernel) {
  if (!kernel_ids_.insert(kernel.id).second)
    fail("{}: duplicate kernel id {}", out_->name(), kernel.id);
  flush();
  std::string line = kernel_line(kernel, out_->name());
  line += '\n';
  out_->write(line.data(), line.size());
  in_kernel_ = true;
}

bool TextWriter::add_allocation(const Allocation& a) {
  if (a.bytes == 0 || a.bytes - 1 > ~a.base || has_space(a.name) ||
      a.name.find('=') != std::string::npos)
    fail("{}: allocation 0x{:x} + {} bytes named '{}' cannot be written in wtrace", out_->name(),
         a.base, a.bytes, a.name);
  flush();
  std::string line = fmt::format("#alloc base=0x{:x} bytes={}", a.base, a.bytes);
  if (!a.name.empty()) line += fmt::format(" name={}", a.name);
  line += '\n';
  out_->write(line.data(), line.size());
  return true;
}

void TextWriter::write(std::span<const WarpInstr> records) {
  if (!in_kernel_ && !records.empty()) fail("{}: records written before any kernel", out_->name());
  for (const WarpInstr& r : records) {
    if (r.mask == 0 || !valid_access_size(r.size) || static_cast<int>(r.op) >= kOpCount)
      fail("{}: cannot write an invalid record (inst {}, mask {:08x}, size {})", out_->name(),
           r.inst, r.mask, r.size);
    char* p = buf_.data() + len_;
    p = put_dec(p, r.inst);
    *p++ = ' ';
    p = put_str(p, op_name(r.op));
    *p++ = ' ';
    p = put_dec(p, r.size);
    *p++ = ' ';
    if (r.sm == kUnknownSm)
      *p++ = '-';
    else
      p = put_dec(p, r.sm);
    *p++ = ' ';
    p = put_dec(p, r.cta);
    *p++ = ' ';
    p = put_dec(p, r.warp);
    *p++ = ' ';
    for (int shift = 28; shift >= 0; shift -= 4) *p++ = "0123456789abcdef"[(r.mask >> shift) & 15];
    *p++ = ' ';
    std::uint64_t base = 0;
    if (detail::strided_base(r, base)) {
      *p++ = '@';
      p = put_hex(p, base);
      *p++ = ':';
      p = put_sdec(p, r.stride);
    } else {
      for (LaneMask m = r.mask; m != 0; m &= m - 1) {
        p = put_hex(p, r.addr[static_cast<unsigned>(std::countr_zero(m))]);
        *p++ = ',';
      }
      --p;  // the last comma
    }
    if (r.instrs_before != 0) {
      *p++ = ' ';
      *p++ = '+';
      p = put_dec(p, r.instrs_before);
    }
    if (r.waits_for_load != 0) {
      *p++ = ' ';
      *p++ = '^';
      p = put_dec(p, r.waits_for_load);
    }
    *p++ = '\n';
    len_ = static_cast<std::size_t>(p - buf_.data());
    if (len_ >= kBufferBytes) flush();
  }
}

void TextWriter::finish() {
  flush();
  out_->finish();
}

}  // namespace gms::trace
