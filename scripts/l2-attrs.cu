// l2-attrs.cu: the L2 limits diropt's l2_window works within, on device 0:
// the L2's size, the most of it that may be set aside for persisting
// lines (cudaLimitPersistingL2CacheSize) and the largest access-policy
// window (results/diropt-1000: an H200 prints 62914560, 39321600 and
// 134217728 bytes).
//
//   make -f mk/cuda.mk cuda && bin/l2-attrs
#include "measure.cuh"

int main() {
  const cudaDeviceProp prop = Device0();
  printf("%s: L2 %d bytes, persisting set-aside at most %d, access-policy window at most %d\n", prop.name,
         prop.l2CacheSize, prop.persistingL2CacheMaxSize, prop.accessPolicyMaxWindowSize);
  return 0;
}
