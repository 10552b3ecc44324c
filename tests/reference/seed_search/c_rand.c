/* The real glibc rand(): for each SEED, srand(SEED) once, then DEALS times a fresh array 0..N-1
   shuffled by the textbook loop, printed one deal per line (index 0 first).
   Usage: c_rand N DEALS SEED... */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  int n = atoi(argv[1]), deals = atoi(argv[2]);
  int* a = malloc(sizeof(int) * (size_t)n);
  for (int s = 3; s < argc; ++s) {
    srand((unsigned)strtoul(argv[s], NULL, 10));
    for (int d = 0; d < deals; ++d) {
      for (int i = 0; i < n; ++i) a[i] = i;
      for (int i = n - 1; i > 0; i--) {
        int j = rand() % (i + 1);
        int t = a[i]; a[i] = a[j]; a[j] = t;
      }
      for (int i = 0; i < n; ++i) printf(i ? " %d" : "%d", a[i]);
      printf("\n");
    }
  }
  free(a);
  return 0;
}
