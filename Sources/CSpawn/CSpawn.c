#define _GNU_SOURCE
#include "CSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

/// The child's descriptor `target` from the parent's `source` (-1: /dev/null). A source that is
/// itself 0, 1 or 2 is first copied above 2 in the parent: dup2 onto the same number would keep
/// its close-on-exec flag, and a later action may already have replaced that number.
static int plan_descriptor(posix_spawn_file_actions_t *actions, int source, int target, int *copy) {
    *copy = -1;
    if (source < 0) {
        return posix_spawn_file_actions_addopen(actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0);
    }
    if (source <= 2) {
        *copy = fcntl(source, F_DUPFD_CLOEXEC, 3);
        if (*copy < 0) return errno;
        source = *copy;
    }
    return posix_spawn_file_actions_adddup2(actions, source, target);
}

int otm_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
              int stdin_fd, int stdout_fd, int stderr_fd, int new_session) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int copies[3] = {-1, -1, -1};
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) return status;
    status = posix_spawnattr_init(&attributes);
    if (status != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return status;
    }
    const int sources[3] = {stdin_fd, stdout_fd, stderr_fd};
    for (int target = 0; target < 3 && status == 0; target++) {
        status = plan_descriptor(&actions, sources[target], target, &copies[target]);
    }
    if (status == 0) status = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (status == 0 && directory != NULL) status = posix_spawn_file_actions_addchdir_np(&actions, directory);

    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (new_session ? POSIX_SPAWN_SETSID : 0);
    if (status == 0) status = posix_spawnattr_setsigmask(&attributes, &none);
    if (status == 0) status = posix_spawnattr_setsigdefault(&attributes, &all);
    if (status == 0) status = posix_spawnattr_setflags(&attributes, flags);
    if (status == 0) status = posix_spawn(pid, path, &actions, &attributes, argv, envp);

    for (int i = 0; i < 3; i++) {
        if (copies[i] >= 0) close(copies[i]);
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return status;
}

int otm_cloexec_pipe(int ends[2]) { return pipe2(ends, O_CLOEXEC) == 0 ? 0 : errno; }
