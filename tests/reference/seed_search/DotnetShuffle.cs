// The real System.Random (mono or .NET): for each SEED, new Random(SEED) once, then DEALS times a
// fresh list 0..N-1 shuffled by LOOP, printed one deal per line (index 0 first). LOOP: down
// (for i = n-1..1: j = rnd.Next(i + 1)), up (the loop of .NET 8's Random.Shuffle: for i = 0..n-2:
// j = rnd.Next(i, n)), naive or inside-out. Usage: mono DotnetShuffle.exe LOOP N DEALS SEED...
using System;
using System.Text;

static class DotnetShuffle {
  static void Main(string[] args) {
    string loop = args[0];
    int n = int.Parse(args[1]), deals = int.Parse(args[2]);
    var sb = new StringBuilder();
    for (int k = 3; k < args.Length; ++k) {
      var rnd = new Random(int.Parse(args[k]));
      for (int d = 0; d < deals; ++d) {
        var a = new int[n];
        for (int i = 0; i < n; ++i) a[i] = i;
        if (loop == "down") {
          for (int i = n - 1; i > 0; --i) { int j = rnd.Next(i + 1); int t = a[i]; a[i] = a[j]; a[j] = t; }
        } else if (loop == "up") {
          for (int i = 0; i < n - 1; ++i) { int j = rnd.Next(i, n); int t = a[i]; a[i] = a[j]; a[j] = t; }
        } else if (loop == "naive") {
          for (int i = 0; i < n; ++i) { int j = rnd.Next(n); int t = a[i]; a[i] = a[j]; a[j] = t; }
        } else {
          for (int i = 0; i < n; ++i) { int j = rnd.Next(i + 1); a[i] = a[j]; a[j] = i; }
        }
        sb.Append(string.Join(" ", a)).Append('\n');
      }
    }
    Console.Write(sb.ToString());
  }
}
