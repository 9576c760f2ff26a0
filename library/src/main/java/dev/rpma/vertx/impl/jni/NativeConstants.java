package dev.rpma.vertx.impl.jni;

import dev.rpma.vertx.FlushType;
import dev.rpma.vertx.MemoryUsage;
import java.util.Set;

/**
 * librpma's, verbs' and the kernel's constants, read from the JNI library by their C names
 * once, when this class initialises: no Java file of impl copies a native value. A name the
 * library does not know fails the load, so a mismatch cannot go unnoticed. (The API's
 * {@code RpmaCompletionException} holds three {@code ibv_wc_status} values as constants of the
 * compiler, so that it loads no native; {@code CompletionStatusConstantsTest} holds them to C's.)
 */
public final class NativeConstants {

  // errors (librpma.h)
  public static final int RPMA_E_UNKNOWN = get("RPMA_E_UNKNOWN");
  public static final int RPMA_E_NOSUPP = get("RPMA_E_NOSUPP");
  public static final int RPMA_E_PROVIDER = get("RPMA_E_PROVIDER");
  public static final int RPMA_E_NOMEM = get("RPMA_E_NOMEM");
  public static final int RPMA_E_INVAL = get("RPMA_E_INVAL");
  public static final int RPMA_E_NO_COMPLETION = get("RPMA_E_NO_COMPLETION");
  public static final int RPMA_E_NO_EVENT = get("RPMA_E_NO_EVENT");
  public static final int RPMA_E_AGAIN = get("RPMA_E_AGAIN");
  public static final int RPMA_E_SHARED_CHANNEL = get("RPMA_E_SHARED_CHANNEL");
  public static final int RPMA_E_NOT_SHARED_CHNL = get("RPMA_E_NOT_SHARED_CHNL");
  // completion flags of a posted operation: always a completion, or only if it failed
  public static final int RPMA_F_COMPLETION_ALWAYS = get("RPMA_F_COMPLETION_ALWAYS");
  public static final int RPMA_F_COMPLETION_ON_ERROR = get("RPMA_F_COMPLETION_ON_ERROR");
  /** An error with its errno: {@code code - errno * ERRNO_FACTOR} (rpma_jni.h). */
  public static final int ERRNO_FACTOR = get("VRPMA_ERRNO_FACTOR");
  public static final int VRPMA_E_NO_OBJECT = get("VRPMA_E_NO_OBJECT");
  public static final int EAGAIN = get("EAGAIN");
  public static final int EMFILE = get("EMFILE");
  public static final int ENOMEM = get("ENOMEM");
  public static final int ENFILE = get("ENFILE");
  public static final int EADDRINUSE = get("EADDRINUSE");
  public static final int EADDRNOTAVAIL = get("EADDRNOTAVAIL");
  public static final int EINVAL = get("EINVAL");
  public static final int ETIMEDOUT = get("ETIMEDOUT");
  public static final int RLIMIT_NOFILE = get("RLIMIT_NOFILE");
  public static final int RLIMIT_MEMLOCK = get("RLIMIT_MEMLOCK");

  // the kernel's CM id table over RDMA netlink (rpma_jni_cmid.c)
  public static final int NLMSG_DONE = get("NLMSG_DONE");
  public static final int NLMSG_ERROR = get("NLMSG_ERROR");
  public static final int NLA_TYPE_MASK = get("NLA_TYPE_MASK");
  public static final int RDMA_NLDEV_ATTR_RES_CM_ID = get("RDMA_NLDEV_ATTR_RES_CM_ID");
  public static final int RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY =
      get("RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY");
  public static final int RDMA_NLDEV_ATTR_RES_LQPN = get("RDMA_NLDEV_ATTR_RES_LQPN");
  public static final int RDMA_NLDEV_ATTR_RES_SRC_ADDR = get("RDMA_NLDEV_ATTR_RES_SRC_ADDR");
  public static final int RDMA_NLDEV_ATTR_RES_DST_ADDR = get("RDMA_NLDEV_ATTR_RES_DST_ADDR");
  public static final int AF_INET = get("AF_INET");
  public static final int AF_INET6 = get("AF_INET6");

  // connection events
  public static final int RPMA_CONN_ESTABLISHED = get("RPMA_CONN_ESTABLISHED");
  public static final int RPMA_CONN_CLOSED = get("RPMA_CONN_CLOSED");
  public static final int RPMA_CONN_LOST = get("RPMA_CONN_LOST");
  public static final int RPMA_CONN_REJECTED = get("RPMA_CONN_REJECTED");
  public static final int RPMA_CONN_UNREACHABLE = get("RPMA_CONN_UNREACHABLE");

  // the RDMA CM's events, read with their status (CmEvents)
  public static final int RDMA_CM_EVENT_ESTABLISHED = get("RDMA_CM_EVENT_ESTABLISHED");
  public static final int RDMA_CM_EVENT_CONNECT_ERROR = get("RDMA_CM_EVENT_CONNECT_ERROR");
  public static final int RDMA_CM_EVENT_DEVICE_REMOVAL = get("RDMA_CM_EVENT_DEVICE_REMOVAL");
  public static final int RDMA_CM_EVENT_DISCONNECTED = get("RDMA_CM_EVENT_DISCONNECTED");
  public static final int RDMA_CM_EVENT_TIMEWAIT_EXIT = get("RDMA_CM_EVENT_TIMEWAIT_EXIT");
  public static final int RDMA_CM_EVENT_REJECTED = get("RDMA_CM_EVENT_REJECTED");
  public static final int RDMA_CM_EVENT_UNREACHABLE = get("RDMA_CM_EVENT_UNREACHABLE");

  // log levels
  public static final int RPMA_LOG_DISABLED = get("RPMA_LOG_DISABLED");
  public static final int RPMA_LOG_LEVEL_FATAL = get("RPMA_LOG_LEVEL_FATAL");
  public static final int RPMA_LOG_LEVEL_ERROR = get("RPMA_LOG_LEVEL_ERROR");
  public static final int RPMA_LOG_LEVEL_WARNING = get("RPMA_LOG_LEVEL_WARNING");
  public static final int RPMA_LOG_LEVEL_NOTICE = get("RPMA_LOG_LEVEL_NOTICE");
  public static final int RPMA_LOG_LEVEL_INFO = get("RPMA_LOG_LEVEL_INFO");
  public static final int RPMA_LOG_LEVEL_DEBUG = get("RPMA_LOG_LEVEL_DEBUG");

  // work completions (verbs.h)
  public static final int IBV_WC_WITH_IMM = get("IBV_WC_WITH_IMM");

  // region usages and flush types, in the order of the API's enums
  private static final int[] USAGE_FLAGS = usageFlags();
  private static final int FLUSH_PERSISTENT = get("RPMA_FLUSH_TYPE_PERSISTENT");
  private static final int FLUSH_VISIBILITY = get("RPMA_FLUSH_TYPE_VISIBILITY");

  private NativeConstants() {
  }

  private static int get(String name) {
    Native.ensureLoaded();
    int value = Native.constant(name);
    if (value == Integer.MIN_VALUE) {
      throw new IllegalStateException("vertx-rpma: the native library does not know " + name
          + ": the jar's Java and C parts come from different builds");
    }
    return value;
  }

  private static int[] usageFlags() {
    MemoryUsage[] all = MemoryUsage.values();
    int[] flags = new int[all.length];
    for (MemoryUsage u : all) {
      flags[u.ordinal()] = get(switch (u) {
        case READ_SRC -> "RPMA_MR_USAGE_READ_SRC";
        case READ_DST -> "RPMA_MR_USAGE_READ_DST";
        case WRITE_SRC -> "RPMA_MR_USAGE_WRITE_SRC";
        case WRITE_DST -> "RPMA_MR_USAGE_WRITE_DST";
        case FLUSH_VISIBILITY -> "RPMA_MR_USAGE_FLUSH_TYPE_VISIBILITY";
        case FLUSH_PERSISTENT -> "RPMA_MR_USAGE_FLUSH_TYPE_PERSISTENT";
        case SEND -> "RPMA_MR_USAGE_SEND";
        case RECV -> "RPMA_MR_USAGE_RECV";
      });
    }
    return flags;
  }

  /** The RPMA_MR_USAGE_* bit of a usage. */
  public static int usageFlag(MemoryUsage usage) {
    return USAGE_FLAGS[usage.ordinal()];
  }

  /** The RPMA_MR_USAGE_* bits of a set of usages, for rpma_mr_reg. */
  public static int usageFlags(Set<MemoryUsage> usages) {
    int bits = 0;
    for (MemoryUsage u : usages) {
      bits |= usageFlag(u);
    }
    return bits;
  }

  /** The rpma_flush_type of a flush. */
  public static int flushType(FlushType type) {
    return type == FlushType.PERSISTENT ? FLUSH_PERSISTENT : FLUSH_VISIBILITY;
  }
}
