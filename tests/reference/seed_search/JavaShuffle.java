// The real java.util.Random and Collections.shuffle: for each SEED, new Random(SEED) once, then
// DEALS times a fresh list 0..N-1 shuffled, printed one deal per line.
// Usage: java JavaShuffle.java N DEALS SEED...
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

public class JavaShuffle {
  public static void main(String[] args) {
    int n = Integer.parseInt(args[0]), deals = Integer.parseInt(args[1]);
    StringBuilder out = new StringBuilder();
    for (int s = 2; s < args.length; ++s) {
      Random rnd = new Random(Long.parseLong(args[s]));
      for (int d = 0; d < deals; ++d) {
        List<Integer> x = new ArrayList<>();
        for (int i = 0; i < n; ++i) x.add(i);
        Collections.shuffle(x, rnd);
        for (int i = 0; i < n; ++i) out.append(i == 0 ? "" : " ").append(x.get(i));
        out.append('\n');
      }
    }
    System.out.print(out);
  }
}
