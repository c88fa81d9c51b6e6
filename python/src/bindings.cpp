// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// fastpair._core: the nanobind module under the Python package. It binds the host API directly
// (fastpair.hpp: encoders, .fpc I/O, the CPU reference decoder, predicates on the codes, the DSV
// parser) and the GPU half through gpu.hpp. It stays thin: argument checks that need the data
// (offsets against chars), the GIL released around every call that can take long, C++ exceptions
// mapped to Python ones, and the Arrow C Device interface capsules. The Python API with its
// docstrings is fastpair/_api.py.
#include "gpu.hpp"

#include <fastpair/fastpair.hpp>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nb = nanobind;
using namespace nb::literals;
namespace fp = fastpair;
namespace fpy = fastpair::python;

// The Arrow C data and C device interfaces (ABI-stable structs, as the Arrow specification defines
// them: https://arrow.apache.org/docs/format/CDeviceDataInterface.html).
extern "C" {
struct ArrowSchema {
  char const* format;
  char const* name;
  char const* metadata;
  std::int64_t flags;
  std::int64_t n_children;
  ArrowSchema** children;
  ArrowSchema* dictionary;
  void (*release)(ArrowSchema*);
  void* private_data;
};
struct ArrowArray {
  std::int64_t length;
  std::int64_t null_count;
  std::int64_t offset;
  std::int64_t n_buffers;
  std::int64_t n_children;
  void const** buffers;
  ArrowArray** children;
  ArrowArray* dictionary;
  void (*release)(ArrowArray*);
  void* private_data;
};
struct ArrowDeviceArray {
  ArrowArray array;
  std::int64_t device_id;
  std::int32_t device_type;
  void* sync_event;
  std::int64_t reserved[3];
};
}

namespace {

constexpr std::int32_t arrow_device_cpu  = 1;
constexpr std::int32_t arrow_device_cuda = 2;
constexpr std::int64_t arrow_flag_nullable = 2;

using u8_in  = nb::ndarray<std::uint8_t const, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using u64_in = nb::ndarray<std::uint64_t const, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

/** A 1-d numpy array that owns `v` (moved to the heap; freed with the array). */
template <class T>
nb::ndarray<nb::numpy, T, nb::ndim<1>> numpy_of(std::vector<T>&& v)
{
  auto* heap = new std::vector<T>(std::move(v));
  nb::capsule owner(heap, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  std::size_t const shape[1] = {heap->size()};
  return nb::ndarray<nb::numpy, T, nb::ndim<1>>(heap->data(), 1, shape, owner);
}

/** A DLPack-capable view (nanobind's nb_ndarray) of device memory, keeping its owner alive. */
nb::object dlpack_view(fpy::device_span const& s, nb::dlpack::dtype dt, std::size_t elem_bytes)
{
  auto* keep = new std::shared_ptr<void>(s.owner);
  nb::capsule owner(keep, [](void* p) noexcept { delete static_cast<std::shared_ptr<void>*>(p); });
  std::size_t const shape[1] = {static_cast<std::size_t>(s.bytes / elem_bytes)};
  nb::ndarray<> nd(s.data, 1, shape, owner, nullptr, dt, nb::device::cuda::value, s.device);
  return nb::cast(nd, nb::rv_policy::reference);
}

fp::strings_view checked_rows(u8_in const& chars, u64_in const& offsets)
{
  FASTPAIR_EXPECTS(offsets.shape(0) >= 1, "offsets must hold num_rows + 1 entries");
  std::uint64_t const* o = offsets.data();
  std::size_t const n    = offsets.shape(0) - 1;
  for (std::size_t r = 0; r < n; ++r)
    if (o[r + 1] < o[r])
      throw fp::logic_error("fastpair: offsets decrease at row " + std::to_string(r) + " (" + std::to_string(o[r]) +
                            " > " + std::to_string(o[r + 1]) + ")");
  if (o[n] > chars.shape(0))
    throw fp::logic_error("fastpair: the last offset " + std::to_string(o[n]) + " is past the " +
                          std::to_string(chars.shape(0)) + " chars");
  return {reinterpret_cast<char const*>(chars.data()), o, n};
}

fp::train_options train_options_of(double sample_fraction, std::uint64_t seed)
{
  FASTPAIR_EXPECTS(sample_fraction > 0 && sample_fraction <= 1, "sample_fraction must be in (0, 1]");
  fp::train_options t;
  t.sample_fraction = sample_fraction;
  t.seed            = seed;
  return t;
}

nb::tuple host_strings_tuple(fp::host_strings&& h)
{
  std::vector<std::uint8_t> chars(h.chars.begin(), h.chars.end());
  return nb::make_tuple(numpy_of(std::move(h.offsets)), numpy_of(std::move(chars)));
}

nb::ndarray<nb::numpy, std::uint64_t, nb::ndim<1>> mask_words(fp::selection_bitmask&& m)
{
  return numpy_of(std::move(m.words));
}

// ---- Arrow C Device interface: a device string column as (schema, device array) capsules ------

struct exported_strings {
  fpy::device_strings strings;
  void const* buffers[3] = {nullptr, nullptr, nullptr};
};

void release_schema(ArrowSchema* s)
{
  s->release = nullptr;
}

void release_array(ArrowArray* a)
{
  delete static_cast<exported_strings*>(a->private_data);
  a->release = nullptr;
}

nb::capsule schema_capsule(int offset_bits)
{
  auto* s = static_cast<ArrowSchema*>(std::calloc(1, sizeof(ArrowSchema)));
  if (!s) throw std::bad_alloc();
  s->format  = offset_bits == 32 ? "u" : "U";  // utf8 / large_utf8
  s->name    = "";
  s->flags   = arrow_flag_nullable;
  s->release = release_schema;
  return nb::capsule(s, "arrow_schema", [](void* p) noexcept {
    auto* s = static_cast<ArrowSchema*>(p);
    if (s->release) s->release(s);
    std::free(s);
  });
}

nb::tuple device_array_capsules(fpy::device_strings const& d)
{
  auto* x       = new exported_strings{d};
  x->buffers[1] = d.offsets.data;
  x->buffers[2] = d.chars.data;
  static char const empty_chars = 0;  // Arrow wants a non-null data buffer even for 0 bytes
  if (!x->buffers[2]) x->buffers[2] = &empty_chars;
  auto* a = static_cast<ArrowDeviceArray*>(std::calloc(1, sizeof(ArrowDeviceArray)));
  if (!a) {
    delete x;
    throw std::bad_alloc();
  }
  a->array.length       = static_cast<std::int64_t>(d.num_rows);
  a->array.n_buffers    = 3;
  a->array.buffers      = x->buffers;
  a->array.release      = release_array;
  a->array.private_data = x;
  a->device_id          = d.offsets.device;
  a->device_type        = arrow_device_cuda;
  a->sync_event         = nullptr;  // the decode has completed: every producer call synchronizes
  nb::capsule arr(a, "arrow_device_array", [](void* p) noexcept {
    auto* a = static_cast<ArrowDeviceArray*>(p);
    if (a->array.release) a->array.release(&a->array);
    std::free(a);
  });
  return nb::make_tuple(schema_capsule(d.offset_bits), arr);
}

std::vector<std::string> strings_of(std::vector<nb::bytes> const& v)
{
  std::vector<std::string> out;
  out.reserve(v.size());
  for (nb::bytes const& b : v) out.emplace_back(b.c_str(), b.size());
  return out;
}

fpy::where where_of(int device, std::uintptr_t stream) { return {device, stream}; }

void expect_one_based_kind(int kind)
{
  FASTPAIR_EXPECTS(kind >= 0 && kind <= 2, "like kind must be 0 (prefix), 1 (substring) or 2 (suffix)");
}

}  // namespace

NB_MODULE(_core, m)
{
  m.doc() = "fastpair's C++ core (private: use the fastpair package).";
  m.attr("__version__") = std::to_string(FASTPAIR_VERSION_MAJOR) + "." + std::to_string(FASTPAIR_VERSION_MINOR) + "." +
                          std::to_string(FASTPAIR_VERSION_PATCH);

  static nb::exception<fp::format_error> format_error(m, "FormatError", PyExc_ValueError);
  static nb::exception<fp::decode_error> decode_error(m, "DecodeError", PyExc_RuntimeError);
  static nb::exception<fp::cuda_error> cuda_error(m, "CudaError", PyExc_RuntimeError);
  nb::register_exception_translator([](std::exception_ptr const& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (fp::logic_error const& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  // ---- host column -----------------------------------------------------------------------------
  nb::class_<fp::compressed_column>(m, "Column")
    .def_prop_ro("codec", [](fp::compressed_column const& c) { return std::string(fp::codec_name(c.kind)); })
    .def_prop_ro("num_rows", &fp::compressed_column::num_rows)
    .def_prop_ro("num_codes", [](fp::compressed_column const& c) { return c.num_codes; })
    .def_prop_ro("decoded_bytes", &fp::compressed_column::decoded_bytes)
    .def_prop_ro("dictionary_size", [](fp::compressed_column const& c) { return c.dict.size(); })
    .def_prop_ro("sidecar_stride", [](fp::compressed_column const& c) { return c.sidecar_stride; })
    .def("stored_sizes",
         [](fp::compressed_column const& c) {
           fp::stored_size const s = fp::column_stored_size(c);
           return nb::make_tuple(s.dictionary, s.codes, s.sidecar, s.row_metadata);
         })
    .def("file_bytes", [](fp::compressed_column const& c, std::uint32_t v) { return fp::fpc_file_bytes(c, v); },
         "version"_a = fp::fpc_version_latest)
    .def("dictionary_token", [](fp::compressed_column const& c, std::size_t i) {
      FASTPAIR_EXPECTS(i < c.dict.size(), "token index out of range");
      std::string_view const t = c.dict.token(i);
      return nb::bytes(t.data(), t.size());
    });

  m.def(
    "compress",
    [](u8_in chars, u64_in offsets, std::string const& codec, double sample_fraction, std::uint64_t seed,
       std::uint32_t sidecar_stride) {
      fp::strings_view const rows   = checked_rows(chars, offsets);
      fp::train_options const topt  = train_options_of(sample_fraction, seed);
      FASTPAIR_EXPECTS(sidecar_stride > 0, "sidecar_stride must be positive");
      nb::gil_scoped_release release;
      std::string reason;
      fp::compressed_column col;
      if (codec == "auto") {
        fp::auto_choice choice;
        col    = fp::encode_auto(rows, topt, &choice);
        reason = choice.reason;
      } else {
        fp::codec const k = fp::parse_codec(codec);
        col               = fp::compress(rows, k, topt);
        reason            = std::string(fp::codec_name(k)) + ": asked for";
      }
      if (sidecar_stride != col.sidecar_stride)
        col = fp::encode(rows, col.kind, col.dict, sidecar_stride);
      return std::make_pair(std::move(col), std::move(reason));
    },
    "chars"_a, "offsets"_a, "codec"_a, "sample_fraction"_a, "seed"_a, "sidecar_stride"_a);

  m.def(
    "serialize",
    [](fp::compressed_column const& c, std::uint32_t version) {
      std::vector<std::uint8_t> b;
      {
        nb::gil_scoped_release release;
        b = fp::serialize(c, version);
      }
      return nb::bytes(b.data(), b.size());
    },
    "column"_a, "version"_a);
  m.def(
    "deserialize", [](u8_in bytes) { return fp::deserialize(bytes.data(), bytes.shape(0)); }, "bytes"_a,
    nb::call_guard<nb::gil_scoped_release>());
  m.def("read_fpc", &fp::read_fpc, "path"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "write_fpc", [](std::string const& path, fp::compressed_column const& c, std::uint32_t v) { fp::write_fpc(path, c, v); },
    "path"_a, "column"_a, "version"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "tile", [](fp::compressed_column const& c, std::uint64_t min_bytes) { return fp::tile_column(c, min_bytes); },
    "column"_a, "min_bytes"_a, nb::call_guard<nb::gil_scoped_release>());

  // Columns made by this module are valid (compress's output; deserialize and read_fpc validate),
  // so the reference decoder skips its own validation.
  m.def(
    "decode_cpu",
    [](fp::compressed_column const& c, std::uint64_t r0, std::uint64_t r1) {
      FASTPAIR_EXPECTS(r0 <= r1 && r1 <= c.num_rows(), "row range out of bounds");
      fp::host_strings h;
      {
        nb::gil_scoped_release release;
        h = fp::decode_reference(c, r0, r1, /*validate_first=*/false);
      }
      return host_strings_tuple(std::move(h));
    },
    "column"_a, "row_begin"_a, "row_end"_a);

  // ---- host predicates on the codes (each returns the bitmask words) ---------------------------
  m.def(
    "select_in_cpu",
    [](fp::compressed_column const& c, std::vector<nb::bytes> const& literals) {
      std::vector<std::string> const own = strings_of(literals);
      std::vector<std::string_view> v(own.begin(), own.end());
      fp::selection_bitmask mask;
      {
        nb::gil_scoped_release release;
        mask = fp::select_in(c, v);
      }
      return mask_words(std::move(mask));
    },
    "column"_a, "literals"_a);
  m.def(
    "select_like_cpu",
    [](fp::compressed_column const& c, int kind, nb::bytes pattern_bytes) {
      expect_one_based_kind(kind);
      std::string const pattern(pattern_bytes.c_str(), pattern_bytes.size());
      fp::selection_bitmask mask;
      {
        nb::gil_scoped_release release;
        mask = fp::select_like(c, static_cast<fp::like_kind>(kind), pattern);
      }
      return mask_words(std::move(mask));
    },
    "column"_a, "kind"_a, "pattern"_a);
  m.def(
    "select_prefix_in_cpu",
    [](fp::compressed_column const& c, std::vector<nb::bytes> const& prefixes) {
      std::vector<std::string> const own = strings_of(prefixes);
      std::vector<std::string_view> v(own.begin(), own.end());
      fp::selection_bitmask mask;
      {
        nb::gil_scoped_release release;
        mask = fp::select_prefix_in(c, v);
      }
      return mask_words(std::move(mask));
    },
    "column"_a, "prefixes"_a);
  m.def(
    "select_like_pattern_cpu",
    [](fp::compressed_column const& c, nb::bytes pattern_bytes) {
      std::string const pattern(pattern_bytes.c_str(), pattern_bytes.size());
      fp::selection_bitmask mask;
      {
        nb::gil_scoped_release release;
        mask = fp::select_like_pattern(c, pattern);
      }
      return mask_words(std::move(mask));
    },
    "column"_a, "pattern"_a);

  // ---- DSV ---------------------------------------------------------------------------------------
  nb::class_<fp::dsv_dialect>(m, "Dialect")
    .def(nb::init<>())
    .def_rw("delimiter", &fp::dsv_dialect::delimiter)
    .def_rw("quote", &fp::dsv_dialect::quote)
    .def_rw("doubled_quote_escape", &fp::dsv_dialect::doubled_quote_escape)
    .def_rw("crlf", &fp::dsv_dialect::crlf)
    .def_rw("header", &fp::dsv_dialect::header)
    .def_rw("quoted_newlines", &fp::dsv_dialect::quoted_newlines)
    .def_rw("expected_fields", &fp::dsv_dialect::expected_fields)
    .def_rw("trailing_delimiter", &fp::dsv_dialect::trailing_delimiter);
  m.def(
    "parse_dsv_cpu",
    [](u8_in bytes, fp::dsv_dialect const& d) {
      fp::dsv_table t;
      {
        nb::gil_scoped_release release;
        t = fp::parse_dsv_parallel(std::string_view(reinterpret_cast<char const*>(bytes.data()), bytes.shape(0)), d);
      }
      nb::list cols;
      for (auto& c : t.columns) cols.append(host_strings_tuple(std::move(c)));
      return nb::make_tuple(t.header, t.num_records, cols);
    },
    "bytes"_a, "dialect"_a);

  // ---- GPU ---------------------------------------------------------------------------------------
  m.def("device_count", []() {
    std::string why;
    int const n = fpy::device_count(&why);
    return nb::make_tuple(n, why);
  });
  m.def("device_name", &fpy::device_name, "device"_a);

  nb::class_<fpy::device_span>(m, "DeviceSpan")
    .def_prop_ro("ptr", [](fpy::device_span const& s) { return reinterpret_cast<std::uintptr_t>(s.data); })
    .def_prop_ro("nbytes", [](fpy::device_span const& s) { return s.bytes; })
    .def_prop_ro("device", [](fpy::device_span const& s) { return s.device; })
    .def("dlpack", [](fpy::device_span const& s, int elem_bits, char kind) {
      FASTPAIR_EXPECTS(elem_bits == 8 || elem_bits == 32 || elem_bits == 64, "element bits must be 8, 32 or 64");
      nb::dlpack::dtype dt{static_cast<std::uint8_t>(kind == 'i' ? nb::dlpack::dtype_code::Int : nb::dlpack::dtype_code::UInt),
                           static_cast<std::uint8_t>(elem_bits), 1};
      return dlpack_view(s, dt, static_cast<std::size_t>(elem_bits / 8));
    }, "elem_bits"_a, "kind"_a);

  nb::class_<fpy::device_strings>(m, "DeviceStrings")
    .def_prop_ro("offset_bits", [](fpy::device_strings const& d) { return d.offset_bits; })
    .def_prop_ro("num_rows", [](fpy::device_strings const& d) { return d.num_rows; })
    .def_ro("offsets", &fpy::device_strings::offsets)
    .def_ro("chars", &fpy::device_strings::chars)
    .def("arrow_device_capsules", [](fpy::device_strings const& d) { return device_array_capsules(d); })
    .def(
      "to_host",
      [](fpy::device_strings const& d, int device, std::uintptr_t stream) {
        std::vector<std::uint8_t> off(d.offsets.bytes), chars(d.chars.bytes);
        {
          nb::gil_scoped_release release;
          fpy::copy_to_host(off.data(), d.offsets.data, off.size(), where_of(device, stream));
          fpy::copy_to_host(chars.data(), d.chars.data, chars.size(), where_of(device, stream));
        }
        return nb::make_tuple(numpy_of(std::move(off)), numpy_of(std::move(chars)));
      },
      "device"_a, "stream"_a);

  nb::class_<fpy::device_mask>(m, "DeviceMask")
    .def_prop_ro("num_rows", [](fpy::device_mask const& k) { return k.num_rows; })
    .def_ro("words", &fpy::device_mask::words);

  nb::class_<fpy::gpu_column>(m, "GpuColumn")
    .def_prop_ro("num_rows", [](fpy::gpu_column const& c) { return fpy::num_rows(c); })
    .def_prop_ro("decoded_bytes", [](fpy::gpu_column const& c) { return fpy::decoded_bytes(c); })
    .def_prop_ro("device_bytes", [](fpy::gpu_column const& c) { return fpy::device_bytes(c); })
    .def_prop_ro("device", [](fpy::gpu_column const& c) { return fpy::device_of(c); })
    .def_prop_ro("has_row_offsets", [](fpy::gpu_column const& c) { return fpy::has_row_offsets(c); });

  auto opts = [](bool validate, bool row_offsets, bool length_stream, bool fused_codes, double share) {
    fp::prepare_options o;
    o.validate              = validate;
    o.row_offsets           = row_offsets;
    o.length_stream         = length_stream;
    o.fused_codes           = fused_codes;
    o.row_lengths_max_share = share;
    return o;
  };
  m.def(
    "prepare",
    [opts](fp::compressed_column const& c, int device, std::uintptr_t stream, bool validate, bool row_offsets,
           bool length_stream, bool fused_codes, double share) {
      return fpy::prepare(c, where_of(device, stream), opts(validate, row_offsets, length_stream, fused_codes, share));
    },
    "column"_a, "device"_a, "stream"_a, "validate"_a, "row_offsets"_a, "length_stream"_a, "fused_codes"_a,
    "row_lengths_max_share"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "prepare_fpc",
    [opts](u8_in bytes, int device, std::uintptr_t stream, bool validate, bool row_offsets, bool length_stream,
           bool fused_codes, double share) {
      return fpy::prepare_fpc(bytes.data(), bytes.shape(0), where_of(device, stream),
                              opts(validate, row_offsets, length_stream, fused_codes, share));
    },
    "bytes"_a, "device"_a, "stream"_a, "validate"_a, "row_offsets"_a, "length_stream"_a, "fused_codes"_a,
    "row_lengths_max_share"_a, nb::call_guard<nb::gil_scoped_release>());
  // The dictionary of a version-2 image, read and checked on the host, as a column without codes:
  // what the device predicates need of the host column (kind and dictionary).
  m.def(
    "fpc_dictionary_column",
    [](u8_in bytes) {
      std::uint8_t const* p = bytes.data();
      std::size_t const n   = bytes.shape(0);
      fp::fpc_header const h = fp::parse_fpc_header(p, n);
      fp::compressed_column c;
      c.kind = h.kind;
      if (h.version == fp::fpc_version_1) {
        c.dict = fp::deserialize(p, n).dict;
        return c;
      }
      if (n != h.layout.file_bytes)
        throw fp::format_error("fastpair: invalid .fpc: file size: " + std::to_string(n) +
                               " bytes, the header describes " + std::to_string(h.layout.file_bytes));
      std::uint64_t sums[3] = {};
      for (std::uint32_t id = 1; id <= 2; ++id) sums[id] = fp::check_fpc_section_header(h, id, p + h.layout.header_at[id]).checksum;
      c.dict = fp::read_fpc_dictionary(h, p + h.layout.payload_at[1], p + h.layout.payload_at[2], sums[1], sums[2]);
      return c;
    },
    "bytes"_a, nb::call_guard<nb::gil_scoped_release>());

  m.def(
    "build_row_offsets",
    [](fpy::gpu_column& c, int device, std::uintptr_t stream) { fpy::build_row_offsets(c, where_of(device, stream)); },
    "column"_a, "device"_a, "stream"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "range_bytes",
    [](fpy::gpu_column const& c, std::uint64_t r0, std::uint64_t r1, int device, std::uintptr_t stream) {
      return fpy::range_bytes(c, r0, r1, where_of(device, stream));
    },
    "column"_a, "row_begin"_a, "row_end"_a, "device"_a, "stream"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "decode",
    [](fpy::gpu_column const& c, std::uint64_t r0, std::uint64_t r1, int bits, int device, std::uintptr_t stream) {
      return fpy::decode(c, r0, r1, bits, where_of(device, stream));
    },
    "column"_a, "row_begin"_a, "row_end"_a, "offset_bits"_a, "device"_a, "stream"_a,
    nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "decode_into",
    [](fpy::gpu_column const& c, std::uint64_t r0, std::uint64_t r1, int bits, std::uintptr_t offsets,
       std::uint64_t offsets_rows, std::uintptr_t chars, std::uint64_t capacity, int device, std::uintptr_t stream) {
      fpy::decode_into(c, r0, r1, bits, reinterpret_cast<void*>(offsets), offsets_rows, reinterpret_cast<void*>(chars),
                       capacity, where_of(device, stream));
    },
    "column"_a, "row_begin"_a, "row_end"_a, "offset_bits"_a, "offsets"_a, "offsets_rows"_a, "chars"_a,
    "chars_capacity"_a, "device"_a, "stream"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "check_errors", [](fpy::gpu_column const& c, int device, std::uintptr_t stream) { fpy::check_errors(c, where_of(device, stream)); },
    "column"_a, "device"_a, "stream"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "decode_rows",
    [](fpy::gpu_column const& c, std::uintptr_t ids, std::uint64_t count, int bits, int device, std::uintptr_t stream) {
      return fpy::decode_rows(c, reinterpret_cast<std::uint64_t const*>(ids), count, bits, where_of(device, stream));
    },
    "column"_a, "ids"_a, "count"_a, "offset_bits"_a, "device"_a, "stream"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "decode_mask",
    [](fpy::gpu_column const& c, fpy::device_mask const& k, int bits, int device, std::uintptr_t stream) {
      return fpy::decode_mask(c, k, bits, where_of(device, stream));
    },
    "column"_a, "mask"_a, "offset_bits"_a, "device"_a, "stream"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "select_in",
    [](fpy::gpu_column const& c, fp::compressed_column const& host, std::vector<nb::bytes> const& literals, int device,
       std::uintptr_t stream) {
      std::vector<std::string> const own = strings_of(literals);
      nb::gil_scoped_release release;
      return fpy::select_in(c, host, own, where_of(device, stream));
    },
    "column"_a, "host"_a, "literals"_a, "device"_a, "stream"_a);
  m.def(
    "select_like",
    [](fpy::gpu_column const& c, fp::compressed_column const& host, int kind, nb::bytes pattern, int device,
       std::uintptr_t stream) {
      std::string const own(pattern.c_str(), pattern.size());
      nb::gil_scoped_release release;
      return fpy::select_like(c, host, kind, own, where_of(device, stream));
    },
    "column"_a, "host"_a, "kind"_a, "pattern"_a, "device"_a, "stream"_a);
  m.def(
    "select_prefix_in",
    [](fpy::gpu_column const& c, fp::compressed_column const& host, std::vector<nb::bytes> const& prefixes, int device,
       std::uintptr_t stream) {
      std::vector<std::string> const own = strings_of(prefixes);
      nb::gil_scoped_release release;
      return fpy::select_prefix_in(c, host, own, where_of(device, stream));
    },
    "column"_a, "host"_a, "prefixes"_a, "device"_a, "stream"_a);
  m.def(
    "select_like_pattern",
    [](fpy::gpu_column const& c, fp::compressed_column const& host, nb::bytes pattern, int device, std::uintptr_t stream) {
      std::string const own(pattern.c_str(), pattern.size());
      nb::gil_scoped_release release;
      return fpy::select_like_pattern(c, host, own, where_of(device, stream));
    },
    "column"_a, "host"_a, "pattern"_a, "device"_a, "stream"_a);
  m.def(
    "mask_and", [](fpy::device_mask const& a, fpy::device_mask const& b, int d, std::uintptr_t s) { return fpy::mask_and(a, b, where_of(d, s)); },
    "a"_a, "b"_a, "device"_a, "stream"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "mask_or", [](fpy::device_mask const& a, fpy::device_mask const& b, int d, std::uintptr_t s) { return fpy::mask_or(a, b, where_of(d, s)); },
    "a"_a, "b"_a, "device"_a, "stream"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "mask_not", [](fpy::device_mask const& a, int d, std::uintptr_t s) { return fpy::mask_not(a, where_of(d, s)); },
    "a"_a, "device"_a, "stream"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "mask_count", [](fpy::device_mask const& a, int d, std::uintptr_t s) { return fpy::mask_count(a, where_of(d, s)); },
    "mask"_a, "device"_a, "stream"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "mask_to_row_ids",
    [](fpy::device_mask const& a, int d, std::uintptr_t s) {
      std::uint64_t count = 0;
      fpy::device_span ids = fpy::mask_to_row_ids(a, &count, where_of(d, s));
      return std::make_pair(std::move(ids), count);
    },
    "mask"_a, "device"_a, "stream"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "upload",
    [](u8_in bytes, int d, std::uintptr_t s) {
      fpy::device_span span = fpy::allocate(bytes.shape(0), where_of(d, s));
      fpy::copy_to_device(span.data, bytes.data(), bytes.shape(0), where_of(d, s));
      return span;
    },
    "bytes"_a, "device"_a, "stream"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "download",
    [](std::uintptr_t ptr, std::uint64_t bytes, int d, std::uintptr_t s) {
      std::vector<std::uint8_t> v(bytes);
      {
        nb::gil_scoped_release release;
        fpy::copy_to_host(v.data(), reinterpret_cast<void const*>(ptr), bytes, where_of(d, s));
      }
      return numpy_of(std::move(v));
    },
    "ptr"_a, "bytes"_a, "device"_a, "stream"_a);
  m.def(
    "mask_from_host",
    [](u64_in words, std::uint64_t num_rows, int d, std::uintptr_t s) {
      FASTPAIR_EXPECTS(words.shape(0) == (num_rows + 63) / 64, "mask words do not match the row count");
      fpy::device_span span = fpy::allocate(words.shape(0) * 8, where_of(d, s));
      fpy::copy_to_device(span.data, words.data(), words.shape(0) * 8, where_of(d, s));
      return fpy::device_mask{num_rows, std::move(span)};
    },
    "words"_a, "num_rows"_a, "device"_a, "stream"_a, nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "synchronize", [](int d, std::uintptr_t s) { fpy::synchronize(where_of(d, s)); }, "device"_a, "stream"_a,
    nb::call_guard<nb::gil_scoped_release>());
  m.def(
    "parse_dsv",
    [](u8_in bytes, fp::dsv_dialect const& dialect, int d, std::uintptr_t s) {
      std::vector<std::string> header;
      std::uint64_t records = 0;
      std::vector<fpy::device_strings> cols;
      {
        nb::gil_scoped_release release;
        cols = fpy::parse_dsv(reinterpret_cast<char const*>(bytes.data()), bytes.shape(0), dialect, where_of(d, s), &header,
                              &records);
      }
      return nb::make_tuple(header, records, cols);
    },
    "bytes"_a, "dialect"_a, "device"_a, "stream"_a);
}
