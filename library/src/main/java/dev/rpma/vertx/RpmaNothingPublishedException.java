package dev.rpma.vertx;

/**
 * Nothing is published under the name in the cluster's directory ({@link RpmaDirectory}): no
 * server was published under it, its server closed or withdrew it, or the node that published
 * it left the cluster. Publish the server first ({@link RpmaDirectory#publish}), check the name
 * (names are exact; {@link RpmaDirectory#list} finds them by prefix), or retry while a server
 * starts.
 *
 * @since 0.1.0
 */
public class RpmaNothingPublishedException extends RpmaException {

  /** The name looked up. */
  private final String name;

  /**
   * Made by the library.
   *
   * @param message what was looked up and what to do
   * @param name the name nothing is published under
   */
  public RpmaNothingPublishedException(String message, String name) {
    super(message, 0, 0);
    this.name = name;
  }

  /**
   * The name nothing is published under.
   *
   * @return the name looked up
   */
  public String name() {
    return name;
  }
}
