// _GNU_SOURCE must precede every include: glibc only declares `struct ucred`,
// `SO_PEERCRED`, `accept4` and `pipe2` under it.
#define _GNU_SOURCE

#include "CSocketShims.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <sys/un.h>
#include <unistd.h>

#if !defined(__linux__)
// Sets close-on-exec, and O_NONBLOCK when asked, where the atomic flags do not exist.
static int csock_set_flags(int fd, int nonblocking) {
    int fdflags = fcntl(fd, F_GETFD);
    if (fdflags == -1 || fcntl(fd, F_SETFD, fdflags | FD_CLOEXEC) == -1) {
        return -1;
    }
    if (nonblocking) {
        int flags = fcntl(fd, F_GETFL);
        if (flags == -1 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) == -1) {
            return -1;
        }
    }
    return 0;
}
#endif

static int csock_close_preserving_errno(int fd) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
}

int csock_peer_uid(int fd, uid_t *uid) {
#if defined(__linux__)
    struct ucred credentials;
    socklen_t length = sizeof(credentials);
    memset(&credentials, 0, sizeof(credentials));
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == -1) {
        return -1;
    }
    if (length != sizeof(credentials)) {
        errno = EINVAL;
        return -1;
    }
    *uid = credentials.uid;
    return 0;
#elif defined(__APPLE__)
    gid_t gid;
    return getpeereid(fd, uid, &gid);
#else
    (void)fd;
    (void)uid;
    errno = ENOSYS;
    return -1;
#endif
}

size_t csock_sun_path_size(void) {
    return sizeof(((struct sockaddr_un *)0)->sun_path);
}

int csock_set_nosigpipe(int fd) {
#if defined(SO_NOSIGPIPE)
    int on = 1;
    return setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, sizeof(on));
#else
    (void)fd;
    return 0;
#endif
}

int csock_msg_nosignal(void) {
#if defined(MSG_NOSIGNAL)
    return MSG_NOSIGNAL;
#else
    return 0;
#endif
}

// A stream socket of `family` that is close-on-exec (atomically on Linux), never raises
// SIGPIPE, and is non-blocking when `nonblocking` is non-zero.
static int csock_stream_socket(int family, int nonblocking) {
#if defined(__linux__)
    int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
    if (fd == -1) {
        return -1;
    }
#else
    int fd = socket(family, SOCK_STREAM, 0);
    if (fd == -1) {
        return -1;
    }
    if (csock_set_flags(fd, nonblocking) == -1) {
        return csock_close_preserving_errno(fd);
    }
#endif
    if (csock_set_nosigpipe(fd) == -1) {
        return csock_close_preserving_errno(fd);
    }
    return fd;
}

int csock_unix_stream_socket(int nonblocking) {
    return csock_stream_socket(AF_UNIX, nonblocking);
}

int csock_accept(int fd, int nonblocking) {
#if defined(__linux__)
    int client = accept4(fd, NULL, NULL, SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0));
    if (client == -1) {
        return -1;
    }
#else
    int client = accept(fd, NULL, NULL);
    if (client == -1) {
        return -1;
    }
    // BSD accept() inherits O_NONBLOCK from the listener: set the mode explicitly.
    int flags = fcntl(client, F_GETFL);
    if (flags == -1) {
        return csock_close_preserving_errno(client);
    }
    flags = nonblocking ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
    if (fcntl(client, F_SETFL, flags) == -1 || csock_set_flags(client, 0) == -1) {
        return csock_close_preserving_errno(client);
    }
#endif
    if (csock_set_nosigpipe(client) == -1) {
        return csock_close_preserving_errno(client);
    }
    return client;
}

int csock_pipe(int fds[2]) {
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC | O_NONBLOCK);
#else
    if (pipe(fds) == -1) {
        return -1;
    }
    if (csock_set_flags(fds[0], 1) == -1 || csock_set_flags(fds[1], 1) == -1) {
        int saved = errno;
        close(fds[0]);
        close(fds[1]);
        errno = saved;
        return -1;
    }
    return 0;
#endif
}

void csock_strerror(int code, char *buffer, size_t length) {
    if (buffer == NULL || length == 0) {
        return;
    }
#if defined(__GLIBC__)
    // GNU strerror_r (selected by _GNU_SOURCE) may return a static string instead of
    // filling the buffer.
    const char *text = strerror_r(code, buffer, length);
    if (text != buffer) {
        snprintf(buffer, length, "%s", text != NULL ? text : "unknown error");
    }
#else
    if (strerror_r(code, buffer, length) != 0) {
        snprintf(buffer, length, "error %d", code);
    }
#endif
    buffer[length - 1] = '\0';
}

int csock_is_loopback(const char *address) {
    struct in_addr v4;
    struct in6_addr v6;
    if (address == NULL) {
        errno = EINVAL;
        return -1;
    }
    if (inet_pton(AF_INET, address, &v4) == 1) {
        return (ntohl(v4.s_addr) >> 24) == 127 ? 1 : 0;
    }
    if (inet_pton(AF_INET6, address, &v6) == 1) {
        return IN6_IS_ADDR_LOOPBACK(&v6) ? 1 : 0;
    }
    errno = EINVAL;
    return -1;
}

int csock_tcp_listen(const char *address, int port, int backlog, int *bound_port) {
    struct sockaddr_storage storage;
    socklen_t length;
    memset(&storage, 0, sizeof(storage));
    if (address == NULL || port < 0 || port > 65535) {
        errno = EINVAL;
        return -1;
    }
    struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
    int family;
    if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
        family = AF_INET;
        v4->sin_family = AF_INET;
        v4->sin_port = htons((unsigned short)port);
        length = sizeof(*v4);
    } else if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
        family = AF_INET6;
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((unsigned short)port);
        length = sizeof(*v6);
    } else {
        errno = EINVAL;
        return -1;
    }
    int fd = csock_stream_socket(family, 1);
    if (fd == -1) {
        return -1;
    }
    int on = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) == -1) {
        return csock_close_preserving_errno(fd);
    }
    if (family == AF_INET6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof(on)) == -1) {
        return csock_close_preserving_errno(fd);
    }
    if (bind(fd, (struct sockaddr *)&storage, length) == -1 || listen(fd, backlog) == -1) {
        return csock_close_preserving_errno(fd);
    }
    struct sockaddr_storage bound;
    socklen_t bound_length = sizeof(bound);
    memset(&bound, 0, sizeof(bound));
    if (getsockname(fd, (struct sockaddr *)&bound, &bound_length) == -1) {
        return csock_close_preserving_errno(fd);
    }
    if (bound_port != NULL) {
        *bound_port = family == AF_INET ? ntohs(((struct sockaddr_in *)&bound)->sin_port)
                                        : ntohs(((struct sockaddr_in6 *)&bound)->sin6_port);
    }
    return fd;
}

int csock_tcp_connect(const char *host, int port, int *connect_error) {
    if (host == NULL || port <= 0 || port > 65535) {
        errno = EINVAL;
        return -1;
    }
    char service[8];
    snprintf(service, sizeof(service), "%d", port);
    struct addrinfo hints;
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    struct addrinfo *found = NULL;
    if (getaddrinfo(host, service, &hints, &found) != 0 || found == NULL) {
        errno = EHOSTUNREACH;
        return -1;
    }
    int fd = csock_stream_socket(found->ai_family, 1);
    if (fd == -1) {
        int saved = errno;
        freeaddrinfo(found);
        errno = saved;
        return -1;
    }
    int on = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
    int result = connect(fd, found->ai_addr, found->ai_addrlen);
    int saved = errno;
    freeaddrinfo(found);
    if (result == 0) {
        *connect_error = 0;
        return fd;
    }
    if (saved == EINPROGRESS || saved == EINTR) {
        *connect_error = EINPROGRESS;
        return fd;
    }
    close(fd);
    errno = saved;
    return -1;
}
