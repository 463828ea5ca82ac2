package io.tributary.compat.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The golden cases a recorder runs: {@code ROOT [CASE...]}, every folder of ROOT with a {@code case.json} when none is named. */
final class GoldenCases {
    private GoldenCases() {
    }

    static List<Path> fromArgs(String[] args) throws IOException {
        Path root = Path.of(args[0]);
        List<Path> cases = new ArrayList<>();
        if (args.length > 1) {
            for (int i = 1; i < args.length; i++) {
                cases.add(root.resolve(args[i]));
            }
        } else {
            try (Stream<Path> s = Files.list(root)) {
                s.filter(p -> Files.exists(p.resolve("case.json"))).sorted().forEach(cases::add);
            }
        }
        return cases;
    }
}
