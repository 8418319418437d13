/* Model repository internals shared by its files (srv_repo.c: models and the API;
 * srv_repo_version.c: load, swap, drop, release; srv_repo_scan.c: scanning a model's path;
 * srv_repo_hot_update.c; srv_repo_poll.c: the poller; srv_repo_config.c: SIGHUP configs;
 * srv_repo_index.c: state and index JSON). Not for the protocol code: srv_repo.h. */
#ifndef TFCC_SERVER_SRV_REPO_INTERNAL_H
#define TFCC_SERVER_SRV_REPO_INTERNAL_H

#include "srv_repo.h"

/* srv_repo_version.c */
/* The identity of a regular file (device, inode, size, mtime). 0, or -1 if not one. */
int srv_file_id_get(const char *path, srv_file_id *id);
int srv_file_id_same(const srv_file_id *a, const srv_file_id *b);
/* Loads and verifies one version in the calling (background) thread. NULL with err. */
srv_version *srv_version_load(srv_repo *r, srv_model *m, long long version, const char *path,
                              const srv_file_id *id, char *err, size_t n);
/* The swap (under the model's lock); the time the lock was held plus waited for, in ns. */
uint64_t srv_version_install(srv_model *m, srv_version *v);
/* Removes the versions not in keep[0..n_keep) (all of them when n_keep is 0, unless
 * keep_all_if_empty). */
void srv_model_drop_versions(srv_model *m, const int64_t *keep, int n_keep, int keep_all_if_empty);

/* srv_repo_scan.c: one scan of a model (initial: no stability wait); the loaded versions. */
int srv_model_scan(srv_repo *r, srv_model *m, int initial, int *failures);

/* srv_repo_hot_update.c: 1 when the changed file was applied as a hot weight update. */
int srv_model_hot_update(srv_model *m, long long version, const char *path, const srv_file_id *id);

/* srv_repo.c */
srv_model *srv_model_new(const srv_model_config *cfg, int from_repo);
void srv_model_free(srv_model *m);
/* Model i of the repository, or NULL past the last (entries are never freed before destroy). */
srv_model *srv_repo_model_at(srv_repo *r, int i);
/* Models not unloaded. */
int srv_repo_served_models(srv_repo *r);
/* Adds models found as sub-directories of the repository (not already known). */
void srv_repo_discover(srv_repo *r);

#endif
