// CSocketShims: the few Unix-socket operations Swift cannot express portably.
//
// Why a C shim: peer credentials (`SO_PEERCRED` / `struct ucred`) are only declared
// by glibc under `_GNU_SOURCE`, which SwiftPM does not pass to Swift clients; the
// SIGPIPE-avoidance flags differ per platform (`MSG_NOSIGNAL` on Linux, `SO_NOSIGPIPE`
// on Apple); and atomic close-on-exec (`SOCK_CLOEXEC`, `accept4`, `pipe2`) exists only
// on Linux. Every function here returns 0 (or a descriptor) on success and -1 with
// `errno` set on failure, like the system calls it wraps.
#ifndef CSOCKETSHIMS_H
#define CSOCKETSHIMS_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Stores the user id of the process at the other end of the connected Unix socket
/// `fd` in `*uid`. Uses `SO_PEERCRED` on Linux and `getpeereid` on Apple platforms.
/// Returns 0, or -1 with errno set (ENOSYS on a platform without either mechanism).
int csock_peer_uid(int fd, uid_t *uid);

/// `sizeof(((struct sockaddr_un *)0)->sun_path)`: 108 on Linux, 104 on Apple
/// platforms. The usable path length is one less (the terminating NUL).
size_t csock_sun_path_size(void);

/// Sets `SO_NOSIGPIPE` on `fd` where the option exists (Apple platforms), so a write
/// to a socket whose peer has gone fails with EPIPE instead of raising SIGPIPE.
/// A successful no-op elsewhere (Linux uses `MSG_NOSIGNAL` per send instead).
int csock_set_nosigpipe(int fd);

/// The value of `MSG_NOSIGNAL` to pass to `send`, or 0 where the flag does not exist.
int csock_msg_nosignal(void);

/// Creates an `AF_UNIX` / `SOCK_STREAM` socket that is close-on-exec (atomically on
/// Linux), has `SO_NOSIGPIPE` set where available, and is non-blocking when
/// `nonblocking` is non-zero. Returns the descriptor or -1 with errno set.
int csock_unix_stream_socket(int nonblocking);

/// Accepts one connection from the listening socket `fd`. The new descriptor is
/// close-on-exec, has `SO_NOSIGPIPE` set where available, and is non-blocking when
/// `nonblocking` is non-zero. Returns the descriptor or -1 with errno set
/// (EAGAIN/EWOULDBLOCK when nothing is pending on a non-blocking listener).
int csock_accept(int fd, int nonblocking);

/// Creates a pipe whose two ends are both non-blocking and close-on-exec
/// (atomically on Linux via `pipe2`). Returns 0 or -1 with errno set.
int csock_pipe(int fds[2]);

/// Writes the thread-safe description of `code` (an errno value) into `buffer`,
/// always NUL-terminated. Hides the GNU/XSI `strerror_r` difference.
void csock_strerror(int code, char *buffer, size_t length);


/// Whether `address` is a numeric loopback address: 1 for IPv4 127.0.0.0/8 or IPv6 ::1,
/// 0 for any other numeric IPv4/IPv6 address, -1 (errno EINVAL) when it is not numeric.
int csock_is_loopback(const char *address);

/// Creates a TCP socket bound to the numeric IPv4/IPv6 `address` on `port` (0: any free
/// port) and listening with `backlog`. The socket is non-blocking, close-on-exec, has
/// `SO_REUSEADDR` (and `IPV6_V6ONLY` for IPv6) set. Stores the port actually bound in
/// `*bound_port`. Returns the descriptor, or -1 with errno set (EINVAL: not a numeric address).
int csock_tcp_listen(const char *address, int port, int backlog, int *bound_port);

/// Creates a non-blocking, close-on-exec TCP socket (with `TCP_NODELAY` and, where it
/// exists, `SO_NOSIGPIPE`) for `host`:`port` and starts connecting. `host` may be a name
/// (resolved with `getaddrinfo`, first result) or a numeric address. Returns the descriptor
/// with `*connect_error` 0 (connected) or EINPROGRESS (poll for writable, then read
/// SO_ERROR), or -1 with errno set; a resolver failure is reported as errno EHOSTUNREACH.
int csock_tcp_connect(const char *host, int port, int *connect_error);

#ifdef __cplusplus
}
#endif

#endif /* CSOCKETSHIMS_H */
