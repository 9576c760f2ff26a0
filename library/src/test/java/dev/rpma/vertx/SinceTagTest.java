package dev.rpma.vertx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Users of a published API need to know from which release each type exists (issue 24): every
 * public type of the API package says so with {@code @since} as the last tag of its comment,
 * and so does the package. Checked on the sources, so a new API class without it fails on the
 * host.
 */
class SinceTagTest {

  private static final Pattern PUBLIC_TYPE = Pattern.compile("^public\\s+(?:(?:final|abstract"
      + "|sealed|non-sealed)\\s+)*(?:class|interface|enum|record|@interface)\\s", Pattern.MULTILINE);
  /** The tag, the comment's end, then only annotations before the declaration. */
  private static final Pattern SINCE_BEFORE_DECLARATION = Pattern.compile(
      "@since \\d+\\.\\d+\\.\\d+\\s*\\n\\s*\\*/\\s*\\n(?:@[^\\n]*\\n)*(?:public\\s|package\\s)",
      Pattern.MULTILINE);

  @Test
  void everyPublicTypeOfTheApiSaysSinceWhichRelease() {
    List<String> untagged = TestLayoutTest.sources("src/main/java/dev/rpma/vertx",
        s -> PUBLIC_TYPE.matcher(s).find() && !SINCE_BEFORE_DECLARATION.matcher(s).find());
    // the API package itself, not impl or internal below it
    assertEquals(List.of(), untagged.stream().filter(f -> !f.contains("/")).toList(),
        "public API types without '@since <version>' as the last tag of their comment: add"
            + " the release that first has them (e.g. @since 0.1.0)");
  }

  @Test
  void theApiPackageSaysSinceWhichRelease() {
    assertEquals(List.of("package-info.java"), TestLayoutTest.sources(
        "src/main/java/dev/rpma/vertx", s -> s.contains("\npackage dev.rpma.vertx;")
            && SINCE_BEFORE_DECLARATION.matcher(s).find()),
        "package-info.java of dev.rpma.vertx without @since as the last tag of its comment");
  }
}
