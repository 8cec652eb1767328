// SPDX-License-Identifier: GPL-2.0
/*
 * ckio: checksummed I/O that knows what the medium must hold.
 *
 *   ckio run DEV FIRST COUNT JOBS STOP STATE
 *   ckio settle DEV STATE
 *
 * run: JOBS threads (the queue depth) write and read 4 KiB blocks
 * FIRST .. FIRST + COUNT - 1 of DEV with O_DIRECT, half writes and half
 * reads, 1 to 16 blocks an I/O, until the file STOP exists.  Each block
 * written carries a header (run id, its own block number, a generation
 * number) and a CRC-32 of the whole block; its payload follows from block
 * and generation.  The blocks are cut in chunks of 16, each job owning
 * every JOBS-th chunk, so that one block never has two I/Os at once.
 *
 * For every block the tool remembers the last generation whose write
 * completed (acked) and the generation of the last write after it that
 * failed (pending): a failed write may or may not have reached the
 * medium, so a read must find the acked generation or one of the failed
 * ones after it, checksum right; anything else (an older generation, a
 * failed write landing over a later completed one) is a mismatch.  Failed I/Os are counted, not fatal: faults cause them
 * (the job that saw one waits 10 ms before its next).
 * STATE gets those generations at the end; STATE.progress is rewritten
 * every 100 ms with "W FW R FR" (writes done and failed, reads done and
 * failed) for a test that waits on I/O moving.
 *
 * settle: once the device is healthy again, write every pending block
 * anew, read back every block ever written and require exactly its
 * generation.  Prints the digest the host recomputes from the backing
 * store: the CRC-32 of (block u64, generation u32), little endian, of
 * every written block in order.
 *
 * Prints one "ckio: ..." summary line.  Exits 0 when nothing mismatched
 * (and, for settle, every I/O succeeded), 1 otherwise, 2 on bad use.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#define BLK		4096
#define CHUNK		16
#define MAGIC		"ckio-v1"
#define MAX_REPORTS	10

struct hdr {
	char magic[8];
	uint64_t block;
	uint32_t run;
	uint32_t gen;
	uint32_t crc;
	uint32_t pad;
};

struct slot {
	uint32_t acked;
	uint32_t pending;
};

struct state_file {
	char magic[8];
	uint32_t run;
	uint32_t pad;
	uint64_t first;
	uint64_t count;
};

static int fd;
static uint32_t run_id;
static uint64_t first, count;
static unsigned int jobs;
static const char *stop_file;
static struct slot *slots;
static volatile int stopping;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t n_write, n_write_err, n_read, n_read_err, n_bad;
static uint64_t bytes_verified;

static uint32_t crc_table[256];

static void crc_init(void)
{
	uint32_t c;
	int i, k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

/* zlib's crc32(): the host computes the same with Python's zlib */
static uint32_t crc32_update(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	crc = ~crc;
	while (len--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void fill_block(uint8_t *b, uint64_t block, uint32_t gen)
{
	struct hdr *h = (struct hdr *)b;
	uint64_t s = (block << 32 ^ gen ^ (uint64_t)run_id << 20) | 1;
	size_t i;

	for (i = sizeof(*h); i < BLK; i += 8) {
		uint64_t v = next_rand(&s);

		memcpy(b + i, &v, 8);
	}
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, MAGIC, sizeof(h->magic));
	h->block = block;
	h->run = run_id;
	h->gen = gen;
	h->crc = crc32_update(0, b, BLK);
}

/* what block holds: its generation, 0 if none of this run's, -1 if bad */
static long block_gen(uint8_t *b, uint64_t block, const char **why)
{
	struct hdr *h = (struct hdr *)b;
	uint32_t crc = h->crc;
	long gen;

	if (memcmp(h->magic, MAGIC, sizeof(h->magic)) || h->run != run_id)
		return 0;
	h->crc = 0;
	if (crc32_update(0, b, BLK) != crc) {
		*why = "checksum wrong";
		return -1;
	}
	h->crc = crc;
	if (h->block != block) {
		*why = "holds another block's data";
		return -1;
	}
	gen = h->gen;
	return gen;
}

static void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void report(const char *fmt, ...)
{
	static int reported;
	va_list ap;

	pthread_mutex_lock(&lock);
	n_bad++;
	if (reported++ < MAX_REPORTS) {
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		fflush(stdout);
	}
	pthread_mutex_unlock(&lock);
}

static void tally(uint64_t *counter)
{
	pthread_mutex_lock(&lock);
	(*counter)++;
	pthread_mutex_unlock(&lock);
}

/* blocks [b, b + n) (relative to first) hold what they should */
static int check_read(uint8_t *buf, uint64_t b, unsigned int n, int exact)
{
	uint64_t verified = 0;
	unsigned int i;
	int ok = 1;

	for (i = 0; i < n; i++) {
		struct slot *s = &slots[b + i];
		const char *why = "";
		long gen;

		if (!s->acked && !s->pending)
			continue;
		gen = block_gen(buf + (size_t)i * BLK, first + b + i, &why);
		if (gen >= 0 && (gen == s->acked ||
				 (!exact && gen > s->acked && gen <= s->pending))) {
			verified += BLK;
			continue;
		}
		if (gen == 0)
			why = "holds none of this run's data";
		else if (gen > 0)
			why = "holds another generation";
		report("ckio: block %llu %s (generation %ld; written %u, in doubt %u)\n",
		       (unsigned long long)(first + b + i), why, gen,
		       s->acked, s->pending);
		ok = 0;
	}
	pthread_mutex_lock(&lock);
	bytes_verified += verified;
	pthread_mutex_unlock(&lock);
	return ok;
}

/* count an I/O (what: "writing" or "reading"); a failed one is a
 * finding when loud, as when settling */
static int io_done(const char *what, int ok, int loud, uint64_t b,
		   unsigned int n)
{
	int err = errno;

	if (*what == 'w')
		tally(ok ? &n_write : &n_write_err);
	else
		tally(ok ? &n_read : &n_read_err);
	if (!ok && loud)
		report("ckio: %s blocks %llu+%u: %s\n", what,
		       (unsigned long long)(first + b), n,
		       err ? strerror(err) : "short transfer");
	return ok;
}

static int write_blocks(uint8_t *buf, uint64_t b, unsigned int n, int settle)
{
	off_t off = (off_t)(first + b) * BLK;
	size_t len = (size_t)n * BLK;
	unsigned int i;
	ssize_t done;

	for (i = 0; i < n; i++) {
		struct slot *s = &slots[b + i];
		uint32_t gen = (s->acked > s->pending ? s->acked : s->pending) + 1;

		fill_block(buf + (size_t)i * BLK, first + b + i, gen);
	}
	errno = 0;
	done = pwrite(fd, buf, len, off);
	for (i = 0; i < n; i++) {
		struct slot *s = &slots[b + i];
		uint32_t gen = ((struct hdr *)(buf + (size_t)i * BLK))->gen;

		if (done == (ssize_t)len) {
			s->acked = gen;
			s->pending = 0;
		} else {
			s->pending = gen;
		}
	}
	return io_done("writing", done == (ssize_t)len, settle, b, n);
}

static int read_blocks(uint8_t *buf, uint64_t b, unsigned int n, int exact)
{
	size_t len = (size_t)n * BLK;
	ssize_t done;

	errno = 0;
	done = pread(fd, buf, len, (off_t)(first + b) * BLK);

	if (!io_done("reading", done == (ssize_t)len, exact, b, n))
		return 0;
	return check_read(buf, b, n, exact);
}

static void *job(void *arg)
{
	unsigned int id = (unsigned int)(uintptr_t)arg;
	struct timespec backoff = { 0, 10 * 1000 * 1000 };
	uint64_t chunks = count / CHUNK, mine, s;
	uint8_t *buf;

	if (posix_memalign((void **)&buf, BLK, CHUNK * BLK))
		return NULL;
	s = ((uint64_t)run_id << 16 ^ id) | 1;
	mine = (chunks - id + jobs - 1) / jobs;
	while (!stopping && mine) {
		uint64_t r = next_rand(&s);
		uint64_t c = (r % mine) * jobs + id;
		unsigned int at = (r >> 20) % CHUNK;
		unsigned int n = 1 + (r >> 24) % (CHUNK - at);
		uint64_t b = c * CHUNK + at;

		if (!(r >> 40 & 1 ? write_blocks(buf, b, n, 0) :
		      read_blocks(buf, b, n, 0)))
			nanosleep(&backoff, NULL);
		if (access(stop_file, F_OK) == 0)
			stopping = 1;
	}
	free(buf);
	return NULL;
}

static void progress(const char *state)
{
	char tmp[4096], name[4096];
	FILE *f;

	if (snprintf(name, sizeof(name), "%s.progress", state) >= (int)sizeof(name) ||
	    snprintf(tmp, sizeof(tmp), "%s.new", name) >= (int)sizeof(tmp))
		return;
	f = fopen(tmp, "w");
	if (!f)
		return;
	pthread_mutex_lock(&lock);
	fprintf(f, "%llu %llu %llu %llu\n", (unsigned long long)n_write,
		(unsigned long long)n_write_err, (unsigned long long)n_read,
		(unsigned long long)n_read_err);
	pthread_mutex_unlock(&lock);
	fclose(f);
	rename(tmp, name);
}

static int save_state(const char *path)
{
	struct state_file h = { .run = run_id, .first = first, .count = count };
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return 0;
	memcpy(h.magic, MAGIC, sizeof(h.magic));
	ok = fwrite(&h, sizeof(h), 1, f) == 1 &&
	     fwrite(slots, sizeof(*slots), count, f) == count;
	return fclose(f) == 0 && ok;
}

static int load_state(const char *path)
{
	struct state_file h;
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return 0;
	ok = fread(&h, sizeof(h), 1, f) == 1 &&
	     !memcmp(h.magic, MAGIC, sizeof(h.magic)) && h.count &&
	     h.count <= (1u << 26);
	if (ok) {
		run_id = h.run;
		first = h.first;
		count = h.count;
		slots = calloc(count, sizeof(*slots));
		ok = slots && fread(slots, sizeof(*slots), count, f) == count;
	}
	fclose(f);
	return ok;
}

static int open_dev(const char *dev)
{
	fd = open(dev, O_RDWR | O_DIRECT);
	if (fd < 0) {
		fprintf(stderr, "ckio: %s: %s\n", dev, strerror(errno));
		return 0;
	}
	return 1;
}

static void summary(const char *what)
{
	printf("ckio: %s writes %llu failed %llu reads %llu failed %llu verified %llu bytes mismatched %llu\n",
	       what, (unsigned long long)n_write,
	       (unsigned long long)n_write_err, (unsigned long long)n_read,
	       (unsigned long long)n_read_err,
	       (unsigned long long)bytes_verified, (unsigned long long)n_bad);
}

static int do_run(char **argv)
{
	char *end;
	pthread_t *threads;
	unsigned int i;
	struct timespec tick = { 0, 100 * 1000 * 1000 };

	first = strtoull(argv[1], &end, 0);
	if (*end)
		return 2;
	count = strtoull(argv[2], &end, 0);
	if (*end || !count || count % CHUNK || count > (1u << 26))
		return 2;
	jobs = strtoul(argv[3], &end, 0);
	if (*end || !jobs || jobs > 256 || jobs > count / CHUNK)
		return 2;
	stop_file = argv[4];
	if (getrandom(&run_id, sizeof(run_id), 0) != sizeof(run_id))
		run_id = (uint32_t)time(NULL) ^ (uint32_t)getpid() << 16;
	slots = calloc(count, sizeof(*slots));
	threads = calloc(jobs, sizeof(*threads));
	if (!slots || !threads || !open_dev(argv[0]))
		return 1;
	for (i = 0; i < jobs; i++)
		if (pthread_create(&threads[i], NULL, job, (void *)(uintptr_t)i))
			return 1;
	while (!stopping) {
		progress(argv[5]);
		nanosleep(&tick, NULL);
		if (access(stop_file, F_OK) == 0)
			stopping = 1;
	}
	for (i = 0; i < jobs; i++)
		pthread_join(threads[i], NULL);
	progress(argv[5]);
	if (!save_state(argv[5])) {
		fprintf(stderr, "ckio: cannot save %s\n", argv[5]);
		return 1;
	}
	printf("ckio: run %08x blocks %llu+%llu jobs %u\n", run_id,
	       (unsigned long long)first, (unsigned long long)count, jobs);
	summary("run");
	return n_bad ? 1 : 0;
}

static int do_settle(char **argv)
{
	uint64_t b, written = 0, redone = 0;
	uint32_t digest = 0;
	uint8_t *buf;

	if (!load_state(argv[1])) {
		fprintf(stderr, "ckio: %s is no state of a run\n", argv[1]);
		return 2;
	}
	if (!open_dev(argv[0]) || posix_memalign((void **)&buf, BLK, BLK))
		return 1;
	for (b = 0; b < count; b++) {
		if (!slots[b].pending)
			continue;
		redone++;
		write_blocks(buf, b, 1, 1);
	}
	for (b = 0; b < count; b++) {
		uint8_t rec[12];
		uint64_t block = first + b;

		if (!slots[b].acked)
			continue;
		written++;
		read_blocks(buf, b, 1, 1);
		memcpy(rec, &block, 8);
		memcpy(rec + 8, &slots[b].acked, 4);
		digest = crc32_update(digest, rec, sizeof(rec));
	}
	printf("ckio: settle %08x rewrote %llu in doubt, %llu blocks written, digest %08x\n",
	       run_id, (unsigned long long)redone,
	       (unsigned long long)written, digest);
	summary("settle");
	return n_bad || n_write_err || n_read_err ? 1 : 0;
}

int main(int argc, char **argv)
{
	int rc = 2;

	crc_init();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 8 && !strcmp(argv[1], "run"))
		rc = do_run(argv + 2);
	else if (argc == 4 && !strcmp(argv[1], "settle"))
		rc = do_settle(argv + 2);
	if (rc == 2)
		fprintf(stderr,
			"usage: ckio run DEV FIRST COUNT JOBS STOP STATE\n"
			"       ckio settle DEV STATE\n");
	return rc;
}
