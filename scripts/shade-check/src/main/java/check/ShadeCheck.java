package check;

import dev.rpma.vertx.impl.jni.NativeConstants;

/**
 * Run from the shaded jar: every dev.rpma.vertx name here has become shaded.dev.rpma.vertx.
 * Reading a constant loads the JNI library, whose JNI_OnLoad must find the relocated binding
 * class (a fixed class name in C would fail the load).
 */
public final class ShadeCheck {

  private ShadeCheck() {
  }

  public static void main(String[] args) {
    String binding = NativeConstants.class.getName();
    if (!binding.startsWith("shaded.")) {
      System.out.println("not relocated: " + binding + " (run the shaded jar)");
      System.exit(1);
    }
    int provider = NativeConstants.RPMA_E_PROVIDER;
    System.out.println("natives registered on " + binding.replace("NativeConstants", "Native")
        + "; RPMA_E_PROVIDER = " + provider);
  }
}
