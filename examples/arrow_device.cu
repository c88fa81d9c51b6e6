// SPDX-FileCopyrightText: 2026 fastpair contributors
// SPDX-License-Identifier: Apache-2.0
// Handing a decoded column to a GPU engine as an Arrow C Device Data Interface `ArrowDeviceArray`
// (utf8 with int32 offsets, large_utf8 with int64 offsets): the zero-copy interchange that cuDF,
// Velox and other GPU engines import. The consumer side of this example validates the struct, its
// buffers and its offsets the way an importer would, then checks the strings.
//
// Usage: fastpair_example_arrow_device [COLUMN.fpc]
//   Without a GPU it prints "skipped" and exits 0.
#include "example_common.hpp"

#include <fastpair/fastpair.cuh>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

// -------------------------------------------------------------------------------------------------
// The ABI structs, as published in the Arrow specification ("The Arrow C data interface" and "The
// Arrow C Device data interface"). The guards let this file coexist with an Arrow header that
// defines the same structs.
// -------------------------------------------------------------------------------------------------
extern "C" {
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  // Array type description
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;

  // Release callback
  void (*release)(struct ArrowSchema*);
  // Opaque producer-specific data
  void* private_data;
};

struct ArrowArray {
  // Array data description
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;

  // Release callback
  void (*release)(struct ArrowArray*);
  // Opaque producer-specific data
  void* private_data;
};
#endif  // ARROW_C_DATA_INTERFACE

#ifndef ARROW_C_DEVICE_DATA_INTERFACE
#define ARROW_C_DEVICE_DATA_INTERFACE

typedef int32_t ArrowDeviceType;
#define ARROW_DEVICE_CPU 1
#define ARROW_DEVICE_CUDA 2
#define ARROW_DEVICE_CUDA_HOST 3
#define ARROW_DEVICE_OPENCL 4
#define ARROW_DEVICE_VULKAN 7
#define ARROW_DEVICE_METAL 8
#define ARROW_DEVICE_VPI 9
#define ARROW_DEVICE_ROCM 10
#define ARROW_DEVICE_ROCM_HOST 11
#define ARROW_DEVICE_EXT_DEV 12
#define ARROW_DEVICE_CUDA_MANAGED 13
#define ARROW_DEVICE_ONEAPI 14
#define ARROW_DEVICE_WEBGPU 15
#define ARROW_DEVICE_HEXAGON 16

struct ArrowDeviceArray {
  // the Allocated Array
  struct ArrowArray array;
  // The device id to identify a specific device
  int64_t device_id;
  // The type of device which can access this memory.
  ArrowDeviceType device_type;
  // An event-like object to synchronize on if needed.
  void* sync_event;
  // Reserved bytes for future expansion.
  int64_t reserved[3];
};
#endif  // ARROW_C_DEVICE_DATA_INTERFACE
}  // extern "C"

namespace {

// -------------------------------------------------------------------------------------------------
// Producer: decode into buffers owned by the exported array.
// -------------------------------------------------------------------------------------------------

/** What an exported array owns. Plain cudaMalloc/cudaFree: the consumer may release the array at
 *  any time from any thread, after the producer's streams are gone. */
struct export_state {
  int device                = 0;
  void* offsets             = nullptr;
  void* chars               = nullptr;
  cudaEvent_t ready         = nullptr;  ///< recorded after the decode; sync_event points here
  void const* buffers[3]    = {nullptr, nullptr, nullptr};
};

void release_array(ArrowArray* a)
{
  auto* st = static_cast<export_state*>(a->private_data);
  cudaSetDevice(st->device);
  cudaEventSynchronize(st->ready);
  cudaFree(st->offsets);
  cudaFree(st->chars);
  cudaEventDestroy(st->ready);
  delete st;
  a->release = nullptr;  // marks the struct released (the spec's rule)
}

void release_schema(ArrowSchema* s) { s->release = nullptr; }  // format and name are static strings

/**
 * Decodes `dcol` on `stream` into newly allocated device buffers and exports them as `out` (a
 * utf8 or large_utf8 array, no nulls) plus its schema. Asynchronous: the consumer must wait on
 * `out->sync_event` before reading. Checks the decoder's error word (this synchronizes; an engine
 * that keeps everything asynchronous can check it later, before trusting the data).
 */
template <class OffsetT>
void export_column(fastpair::device_column const& dcol, cudaStream_t stream, ArrowDeviceArray* out, ArrowSchema* schema)
{
  static_assert(std::is_same_v<OffsetT, std::int32_t> || std::is_same_v<OffsetT, std::int64_t>);
  // Owned here until the array takes it over (so an exception on the way leaks nothing).
  struct owner {
    export_state* st = new export_state;
    ~owner()
    {
      if (!st) return;
      cudaFree(st->offsets);
      cudaFree(st->chars);
      if (st->ready) cudaEventDestroy(st->ready);
      delete st;
    }
  } own;
  export_state* const st = own.st;
  FASTPAIR_CUDA_TRY(cudaGetDevice(&st->device));
  std::uint64_t const rows = dcol.num_rows(), bytes = dcol.decoded_bytes();
  FASTPAIR_CUDA_TRY(cudaMalloc(&st->offsets, (rows + 1) * sizeof(OffsetT)));
  FASTPAIR_CUDA_TRY(cudaMalloc(&st->chars, bytes ? bytes : 1));  // a valid pointer even when empty
  FASTPAIR_CUDA_TRY(cudaEventCreateWithFlags(&st->ready, cudaEventDisableTiming));

  fastpair::string_column_view<OffsetT> view{static_cast<OffsetT*>(st->offsets), static_cast<char*>(st->chars), rows, bytes};
  fastpair::decode_column(dcol, view, stream);  // throws logic_error if int32 offsets would overflow
  FASTPAIR_CUDA_TRY(cudaEventRecord(st->ready, stream));
  if (dcol.read_and_clear_errors(stream) != 0) throw fastpair::decode_error("corrupt column");

  st->buffers[0] = nullptr;  // validity bitmap: absent, there are no nulls
  st->buffers[1] = st->offsets;
  st->buffers[2] = st->chars;
  std::memset(out, 0, sizeof *out);
  out->array.length       = static_cast<int64_t>(rows);
  out->array.null_count   = 0;
  out->array.offset       = 0;
  out->array.n_buffers    = 3;
  out->array.n_children   = 0;
  out->array.buffers      = st->buffers;
  out->array.children     = nullptr;
  out->array.dictionary   = nullptr;
  out->array.release      = release_array;
  out->array.private_data = st;
  own.st                  = nullptr;  // the array owns it now; release_array frees it
  out->device_id          = st->device;
  out->device_type        = ARROW_DEVICE_CUDA;
  out->sync_event         = &st->ready;  // for CUDA: a pointer to a cudaEvent_t

  std::memset(schema, 0, sizeof *schema);
  schema->format     = std::is_same_v<OffsetT, std::int32_t> ? "u" : "U";  // utf8 / large_utf8
  schema->name       = "decoded";
  schema->metadata   = nullptr;
  schema->flags      = 0;  // not nullable
  schema->n_children = 0;
  schema->release    = release_schema;
}

// -------------------------------------------------------------------------------------------------
// Consumer: what an importing engine checks before it uses the buffers.
// -------------------------------------------------------------------------------------------------

#define EXPECT(cond, msg) \
  do {                    \
    if (!(cond)) throw std::runtime_error(std::string("ArrowDeviceArray check failed: ") + (msg) + " (" #cond ")"); \
  } while (0)

template <class OffsetT>
void import_and_check(ArrowSchema* schema, ArrowDeviceArray* arr, fastpair::host_strings const& expect)
{
  char const* const want_format = sizeof(OffsetT) == 4 ? "u" : "U";
  EXPECT(schema->release != nullptr, "schema already released");
  EXPECT(std::strcmp(schema->format, want_format) == 0, "format");
  EXPECT(schema->n_children == 0 && schema->dictionary == nullptr, "a string array has no children");
  ArrowArray const& a = arr->array;
  EXPECT(a.release != nullptr, "array already released");
  EXPECT(arr->device_type == ARROW_DEVICE_CUDA, "device type");
  int dev = 0;
  FASTPAIR_CUDA_TRY(cudaGetDevice(&dev));
  EXPECT(arr->device_id == dev, "device id");
  EXPECT(a.n_buffers == 3 && a.buffers != nullptr, "utf8 arrays have 3 buffers");
  EXPECT(a.n_children == 0 && a.children == nullptr && a.dictionary == nullptr, "no children, no dictionary");
  EXPECT(a.length == static_cast<int64_t>(expect.num_rows()), "length");
  EXPECT(a.offset >= 0, "offset");
  EXPECT(a.null_count == 0 && a.buffers[0] == nullptr, "no nulls and no validity bitmap");
  EXPECT(a.buffers[1] != nullptr && a.buffers[2] != nullptr, "offsets and data buffers present");
  for (int b = 1; b <= 2; ++b) {  // both are device memory of this device
    cudaPointerAttributes attr{};
    FASTPAIR_CUDA_TRY(cudaPointerGetAttributes(&attr, a.buffers[b]));
    EXPECT(attr.type == cudaMemoryTypeDevice && attr.device == dev, "buffer is device memory of device_id");
  }

  // Make our stream wait for the producer, then read the offsets.
  cudaStream_t s;
  FASTPAIR_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  if (arr->sync_event) FASTPAIR_CUDA_TRY(cudaStreamWaitEvent(s, *static_cast<cudaEvent_t*>(arr->sync_event), 0));
  std::vector<OffsetT> off(static_cast<std::size_t>(a.offset + a.length + 1));
  FASTPAIR_CUDA_TRY(cudaMemcpyAsync(off.data(), a.buffers[1], off.size() * sizeof(OffsetT), cudaMemcpyDeviceToHost, s));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
  OffsetT const first = off[static_cast<std::size_t>(a.offset)];
  EXPECT(first >= 0, "first offset non-negative");
  for (std::size_t i = static_cast<std::size_t>(a.offset); i + 1 < off.size(); ++i)
    EXPECT(off[i] <= off[i + 1], "offsets monotone");
  std::size_t const bytes = static_cast<std::size_t>(off.back() - first);
  std::vector<char> chars(bytes);
  if (bytes)
    FASTPAIR_CUDA_TRY(cudaMemcpyAsync(chars.data(), static_cast<char const*>(a.buffers[2]) + first, bytes,
                                      cudaMemcpyDeviceToHost, s));
  FASTPAIR_CUDA_TRY(cudaStreamSynchronize(s));
  FASTPAIR_CUDA_TRY(cudaStreamDestroy(s));
  for (std::size_t r = 0; r < expect.num_rows(); ++r)
    EXPECT(static_cast<std::uint64_t>(off[static_cast<std::size_t>(a.offset) + r + 1] - first) == expect.offsets[r + 1],
           "offset " + std::to_string(r + 1));
  EXPECT(chars == expect.chars, "string bytes");

  // Done with it: release (the consumer's duty), which must mark both structs released.
  arr->array.release(&arr->array);
  schema->release(schema);
  EXPECT(arr->array.release == nullptr && schema->release == nullptr, "release marks the structs released");
}

}  // namespace

int main(int argc, char** argv)
{
  if (example::gpus_or_skip("arrow_device") == 0) return 0;
  try {
    // The stored bytes of a .fpc image (a file, or a sample column serialised in memory).
    std::vector<std::uint8_t> const bytes =
      argc > 1 ? example::read_bytes(argv[1])
               : fastpair::serialize(fastpair::compress(example::sample_rows(100000), fastpair::codec::fsst12));
    fastpair::host_strings const expect = fastpair::decode_reference(fastpair::deserialize(bytes.data(), bytes.size()));
    cudaStream_t stream;
    FASTPAIR_CUDA_TRY(cudaStreamCreate(&stream));
    {
      fastpair::device_column const dcol = fastpair::device_column::prepare_fpc_host(bytes.data(), bytes.size(), stream);
      ArrowDeviceArray arr;
      ArrowSchema schema;
      if (dcol.decoded_bytes() <= 0x7FFFFFFFull) {
        export_column<std::int32_t>(dcol, stream, &arr, &schema);
        import_and_check<std::int32_t>(&schema, &arr, expect);
        std::printf("arrow_device: utf8 (int32 offsets): %llu rows, %llu bytes: valid, matches the CPU reference\n",
                    static_cast<unsigned long long>(dcol.num_rows()), static_cast<unsigned long long>(dcol.decoded_bytes()));
      } else {
        std::printf("arrow_device: utf8 not exported: %llu bytes overflow int32 offsets\n",
                    static_cast<unsigned long long>(dcol.decoded_bytes()));
      }
      export_column<std::int64_t>(dcol, stream, &arr, &schema);
      import_and_check<std::int64_t>(&schema, &arr, expect);
      std::printf("arrow_device: large_utf8 (int64 offsets): %llu rows, %llu bytes: valid, matches the CPU reference\n",
                  static_cast<unsigned long long>(dcol.num_rows()), static_cast<unsigned long long>(dcol.decoded_bytes()));
    }
    FASTPAIR_CUDA_TRY(cudaStreamDestroy(stream));
    return 0;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "arrow_device: %s\n", e.what());
    return 1;
  }
}
