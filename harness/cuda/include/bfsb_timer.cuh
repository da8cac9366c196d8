// bfsb_timer.cuh: timing device work with CUDA events, for all bfsbench
// CUDA libraries.
//
// Events time the device's own timeline, so asynchronous launches are
// measured from the moment the stream reaches the first event to the moment
// it reaches the second, host gaps between launches included. Each method
// returns the cudaError_t of its call; wrap it in BFSB_CHECK.
#ifndef BFSB_TIMER_CUH
#define BFSB_TIMER_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

namespace bfsb {

// EventPool holds n events, recorded in order on one stream, so that a
// search can mark the start and end of each level and read all the
// intervals after one synchronization at the end.
class EventPool {
 public:
  EventPool() = default;
  EventPool(const EventPool&) = delete;
  EventPool& operator=(const EventPool&) = delete;
  ~EventPool() { Destroy(); }

  // Create makes n events (default flags: timing enabled).
  cudaError_t Create(int n) {
    Destroy();
    events_ = new cudaEvent_t[n];
    for (int i = 0; i < n; ++i) events_[i] = nullptr;
    n_ = n;
    for (int i = 0; i < n; ++i) {
      cudaError_t e = cudaEventCreate(&events_[i]);
      if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
  }

  int Size() const { return n_; }

  // Record marks event i on stream s.
  cudaError_t Record(int i, cudaStream_t s) { return cudaEventRecord(events_[i], s); }

  // Synchronize waits for event i.
  cudaError_t Synchronize(int i) { return cudaEventSynchronize(events_[i]); }

  // ElapsedMs stores the time from event a to event b in *ms.
  cudaError_t ElapsedMs(int a, int b, float* ms) {
    return cudaEventElapsedTime(ms, events_[a], events_[b]);
  }

  void Destroy() {
    if (events_ == nullptr) return;
    for (int i = 0; i < n_; ++i) {
      if (events_[i] != nullptr) cudaEventDestroy(events_[i]);
    }
    delete[] events_;
    events_ = nullptr;
    n_ = 0;
  }

 private:
  cudaEvent_t* events_ = nullptr;
  int n_ = 0;
};

// MedianMs times device work: work (a callable that enqueues on stream s
// and returns a cudaError_t, e.g. cudaGetLastError() after a launch) runs
// once untimed, then reps times, each between events a and b of ev, and
// *ms receives the median of those reps (milliseconds). reps >= 1.
template <typename Work>
cudaError_t MedianMs(EventPool& ev, int a, int b, cudaStream_t s, int reps, Work work, float* ms) {
  std::vector<float> t;
  for (int r = 0; r <= reps; ++r) {  // r == 0: the warm-up
    cudaError_t e = ev.Record(a, s);
    if (e == cudaSuccess) e = work();
    if (e == cudaSuccess) e = ev.Record(b, s);
    if (e == cudaSuccess) e = ev.Synchronize(b);
    float x = 0;
    if (e == cudaSuccess) e = ev.ElapsedMs(a, b, &x);
    if (e != cudaSuccess) return e;
    if (r > 0) t.push_back(x);
  }
  std::sort(t.begin(), t.end());
  *ms = t[t.size() / 2];
  return cudaSuccess;
}

}  // namespace bfsb

#endif  // BFSB_TIMER_CUH
