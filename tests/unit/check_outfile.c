/*
 * outfile.c, the capture tools' output files: written whole or not at
 * all, 0600, never through a planted symlink, and a FIFO or device named
 * as the output written in place rather than replaced.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

static char	dir[PATH_MAX];

static void
setup(void)
{
	snprintf(dir, sizeof dir, "%s/outfile.XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	ck_assert(mkdtemp(dir) != NULL);
}

static void
teardown(void)
{
	DIR		*d;
	struct dirent	*e;
	char		 p[PATH_MAX * 2];

	if ((d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

static char *
in_dir(const char *name)
{
	static char	p[4][PATH_MAX * 2];
	static int	n;

	n = (n + 1) % 4;
	snprintf(p[n], sizeof p[n], "%s/%s", dir, name);
	return (p[n]);
}

/* The names in dir, sorted, joined by spaces. */
static char *
listing(void)
{
	static char	 out[4096];
	struct dirent	**e;
	int		 i, n;

	out[0] = '\0';
	n = scandir(dir, &e, NULL, alphasort);
	ck_assert_int_ge(n, 0);
	for (i = 0; i < n; i++) {
		if (e[i]->d_name[0] != '.' || (strcmp(e[i]->d_name, ".") != 0
		    && strcmp(e[i]->d_name, "..") != 0)) {
			if (out[0] != '\0')
				strcat(out, " ");
			strcat(out, e[i]->d_name);
		}
		free(e[i]);
	}
	free(e);
	return (out);
}

static char *
contents(const char *path)
{
	static char	 buf[256];
	FILE		*f = fopen(path, "r");
	size_t		 n;

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return (buf);
}

static void
put_file(const char *path, const char *text)
{
	FILE	*f = fopen(path, "w");

	ck_assert(f != NULL);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void
write_out(const char *path, const char *text)
{
	struct outfile	 o;
	FILE		*f;

	f = outfile_fopen(&o, path, "w");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	fputs(text, f);
	ck_assert_msg(outfile_fclose(&o, f) == 0, "%s: %s", path,
	    strerror(errno));
}

/* A new file appears whole, 0600 whatever the umask, and alone. */
START_TEST(test_new_file)
{
	struct stat	st;
	mode_t		old = umask(0);

	write_out(in_dir("out.mon"), "data\n");
	umask(old);
	ck_assert_str_eq(contents(in_dir("out.mon")), "data\n");
	ck_assert_int_eq(stat(in_dir("out.mon"), &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	ck_assert_str_eq(listing(), "out.mon");
}
END_TEST

/* A file there is replaced, by a new one: its old mode is not kept. */
START_TEST(test_replace)
{
	struct stat	st;

	put_file(in_dir("out.mon"), "old\n");
	chmod(in_dir("out.mon"), 0644);
	write_out(in_dir("out.mon"), "new\n");
	ck_assert_str_eq(contents(in_dir("out.mon")), "new\n");
	ck_assert_int_eq(stat(in_dir("out.mon"), &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	ck_assert_str_eq(listing(), "out.mon");
}
END_TEST

/* The old tools' NAME.tmp, planted as a symlink: the victim is kept. */
START_TEST(test_planted_symlink)
{
	put_file(in_dir("victim"), "precious\n");
	ck_assert_int_eq(symlink(in_dir("victim"), in_dir("out.mon.tmp")), 0);
	write_out(in_dir("out.mon"), "data\n");
	ck_assert_str_eq(contents(in_dir("victim")), "precious\n");
	ck_assert_str_eq(contents(in_dir("out.mon")), "data\n");
	ck_assert_str_eq(listing(), "out.mon out.mon.tmp victim");
}
END_TEST

/* A FIFO named as the output is written in place and stays a FIFO. */
START_TEST(test_fifo)
{
	struct stat	 st;
	char		 buf[16];
	pid_t		 pid;
	int		 fd;
	ssize_t		 n;

	ck_assert_int_eq(mkfifo(in_dir("pipe"), 0600), 0);
	if ((pid = fork()) == 0) {
		write_out(in_dir("pipe"), "through\n");
		_exit(0);
	}
	fd = open(in_dir("pipe"), O_RDONLY);
	ck_assert_int_ge(fd, 0);
	n = read(fd, buf, sizeof buf - 1);
	ck_assert_int_eq(n, 8);
	buf[n] = '\0';
	close(fd);
	ck_assert_str_eq(buf, "through\n");
	ck_assert_int_eq(lstat(in_dir("pipe"), &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	ck_assert_str_eq(listing(), "pipe");
}
END_TEST

/*
 * A link another user put at the name, to a FIFO (or a disk): replaced,
 * not followed (following it, the write would wait for a reader for
 * ever, or go to the disk); one of ours to a FIFO is followed, as
 * /dev/stdout is.
 */
START_TEST(test_their_link)
{
	struct stat	 st;
	char		 buf[16];
	pid_t		 pid;
	int		 fd;
	ssize_t		 n;

	if (geteuid() != 0)
		return;		/* only root can give a link away */
	ck_assert_int_eq(mkfifo(in_dir("pipe"), 0600), 0);
	ck_assert_int_eq(symlink(in_dir("pipe"), in_dir("theirs")), 0);
	ck_assert_int_eq(lchown(in_dir("theirs"), 65534, 65534), 0);
	write_out(in_dir("theirs"), "mine\n");
	ck_assert_int_eq(lstat(in_dir("theirs"), &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_str_eq(contents(in_dir("theirs")), "mine\n");
	ck_assert_int_eq(lstat(in_dir("pipe"), &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));

	ck_assert_int_eq(symlink(in_dir("pipe"), in_dir("ours")), 0);
	if ((pid = fork()) == 0) {
		write_out(in_dir("ours"), "through\n");
		_exit(0);
	}
	fd = open(in_dir("pipe"), O_RDONLY);
	ck_assert_int_ge(fd, 0);
	n = read(fd, buf, sizeof buf - 1);
	ck_assert_int_eq(n, 8);
	close(fd);
	ck_assert_int_eq(lstat(in_dir("ours"), &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
}
END_TEST

/* /dev/null stays the device (as root the old way replaced it). */
START_TEST(test_device)
{
	struct stat	st;

	write_out("/dev/null", "gone\n");
	ck_assert_int_eq(stat("/dev/null", &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
}
END_TEST

/* Given up, the file leaves nothing behind, and the target is kept. */
START_TEST(test_abort)
{
	struct outfile	 o;
	FILE		*f;
	int		 fd;

	put_file(in_dir("out.mon"), "old\n");
	f = outfile_fopen(&o, in_dir("out.mon"), "w");
	ck_assert(f != NULL);
	fputs("half", f);
	outfile_fabort(&o, f);
	fd = outfile_open(&o, in_dir("out.mon"));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "half", 4), 4);
	outfile_abort(&o);
	ck_assert_str_eq(contents(in_dir("out.mon")), "old\n");
	ck_assert_str_eq(listing(), "out.mon");
}
END_TEST

/* The descriptor calls: written, closed and in place. */
START_TEST(test_descriptor)
{
	struct outfile	o;
	int		fd;

	fd = outfile_open(&o, in_dir("snap.heap"));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "heap\n", 5), 5);
	ck_assert_int_eq(outfile_close(&o), 0);
	ck_assert_str_eq(contents(in_dir("snap.heap")), "heap\n");
	ck_assert_str_eq(listing(), "snap.heap");
}
END_TEST

/* Errors come back as -1 and errno: a missing folder, a folder. */
START_TEST(test_errors)
{
	struct outfile	o;

	ck_assert_int_eq(outfile_open(&o, in_dir("no/such/out.mon")), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(outfile_open(&o, dir), -1);
	ck_assert_int_eq(errno, EISDIR);
	ck_assert_str_eq(listing(), "");
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("outfile");
	TCase	*tc = tcase_create("outfile");
	SRunner	*sr;
	int	 failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_new_file);
	tcase_add_test(tc, test_replace);
	tcase_add_test(tc, test_planted_symlink);
	tcase_add_test(tc, test_fifo);
	tcase_add_test(tc, test_their_link);
	tcase_add_test(tc, test_device);
	tcase_add_test(tc, test_abort);
	tcase_add_test(tc, test_descriptor);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (failed == 0 ? 0 : 1);
}
