#ifndef ONTHEMAP_CSPAWN_H
#define ONTHEMAP_CSPAWN_H

#include <sys/types.h>

/// posix_spawn with the GNU extensions Swift's Glibc module does not show (they need
/// _GNU_SOURCE, which only this file's own translation unit defines): the child's working
/// directory, closing every inherited descriptor above 2, and a session of its own.
///
/// `stdin_fd`, `stdout_fd` and `stderr_fd` become the child's 0, 1 and 2; -1 means /dev/null.
/// Every other descriptor is closed in the child, whether or not it was close-on-exec. The
/// child starts with no blocked signals and every signal's default action. `directory` may be
/// NULL (the parent's). `new_session` non-zero: the child leads a new session (no controlling
/// terminal, none of the terminal's signals). Returns 0 and the child's id in `*pid`, or an errno.
int otm_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
              int stdin_fd, int stdout_fd, int stderr_fd, int new_session);

/// A pipe whose two ends are close-on-exec (pipe2 is GNU too): no child started meanwhile by
/// another thread inherits it. Returns 0, or an errno.
int otm_cloexec_pipe(int ends[2]);

#endif
