// bfsb_check.cuh: checking every CUDA call, for all bfsbench CUDA libraries.
//
// Implements the error convention of bfsb_abi.h: an exported function takes
// (char* err, int32_t errlen) last and returns 0 or a status. Inside it,
// wrap each CUDA call in BFSB_CHECK(...) and each kernel launch in
// BFSB_CHECK_LAUNCH("kernel name"): on failure they write "<the call as
// written>: <CUDA's message> (<error name>) [file:line]" into err and return
// the status from the enclosing function.
#ifndef BFSB_CHECK_CUH
#define BFSB_CHECK_CUH

#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "bfsb_abi.h"

namespace bfsb {

// Errf writes a printf-style message into err (when err is non-null) and
// returns status, so that `return Errf(...)` reports and fails in one line.
inline int32_t Errf(char* err, int32_t errlen, int32_t status, const char* fmt, ...) {
  if (err != nullptr && errlen > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, (size_t)errlen, fmt, ap);
    va_end(ap);
  }
  return status;
}

// CudaFail reports a failed CUDA call: its text, CUDA's message and name.
inline int32_t CudaFail(char* err, int32_t errlen, const char* call, cudaError_t e,
                        const char* file, int line) {
  const char* base = file;
  for (const char* p = file; *p; ++p) {
    if (*p == '/') base = p + 1;
  }
  return Errf(err, errlen, (int32_t)e, "%s: %s (%s) [%s:%d]", call, cudaGetErrorString(e),
              cudaGetErrorName(e), base, line);
}

}  // namespace bfsb

// BFSB_CHECK evaluates a cudaError_t expression; on failure it reports it
// through the enclosing function's err/errlen and returns its status.
#define BFSB_CHECK(call)                                                     \
  do {                                                                       \
    cudaError_t bfsb_e_ = (call);                                            \
    if (bfsb_e_ != cudaSuccess) {                                            \
      return ::bfsb::CudaFail(err, errlen, #call, bfsb_e_, __FILE__, __LINE__); \
    }                                                                        \
  } while (0)

// BFSB_CHECK_LAUNCH checks the launch that just happened (configuration
// errors, missing kernel image for this GPU) under the kernel's name.
#define BFSB_CHECK_LAUNCH(kernel_name)                                           \
  do {                                                                           \
    cudaError_t bfsb_e_ = cudaGetLastError();                                    \
    if (bfsb_e_ != cudaSuccess) {                                                \
      return ::bfsb::CudaFail(err, errlen, "launch " kernel_name, bfsb_e_, __FILE__, \
                              __LINE__);                                         \
    }                                                                            \
  } while (0)

// BFSB_REQUIRE fails with BFSB_EINVAL and a message when cond is false.
#define BFSB_REQUIRE(cond, ...)                                        \
  do {                                                                 \
    if (!(cond)) {                                                     \
      return ::bfsb::Errf(err, errlen, BFSB_EINVAL, __VA_ARGS__);      \
    }                                                                  \
  } while (0)

#endif  // BFSB_CHECK_CUH
