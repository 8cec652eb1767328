// SPDX-License-Identifier: GPL-2.0
/*
 * fc-bsg: send one FC transport bsg request to an fc_host and show the
 * answer, the way a vendor's management tool would.
 *
 *   fc-bsg DEV vendor VID CMD LEN [OFF=VALUE]...
 *
 * sends FC_BSG_HST_VENDOR for vendor VID with command word CMD and a
 * request payload of LEN bytes, zero but for the 32-bit VALUEs at byte
 * offsets OFF; the reply payload has the same size.  Prints "result R"
 * (the driver's result) and then "OFF VALUE" for every 32-bit word of
 * the reply payload, VALUE in hex.  Exits 0 when the request completed,
 * whatever its result; 2 on bad arguments, 1 when the request failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/bsg.h>
#include <scsi/sg.h>
#include <scsi/scsi_bsg_fc.h>

#define MAX_PAYLOAD	(64 * 1024)

static int usage(void)
{
	fprintf(stderr, "usage: fc-bsg DEV vendor VID CMD LEN [OFF=VALUE]...\n");
	return 2;
}

static int number(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	if (errno || end == s || *end || *v > max) {
		fprintf(stderr, "fc-bsg: bad number '%s' (at most %lu)\n", s, max);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct {
		struct fc_bsg_request r;
		uint32_t room;	/* for vendor_cmd[0] past a short union */
	} req;
	struct fc_bsg_reply rep;
	struct sg_io_v4 io;
	unsigned long vid, cmd, len, off, val;
	uint8_t *out, *in;
	uint32_t w32;
	int fd, i;

	if (argc < 6 || strcmp(argv[2], "vendor"))
		return usage();
	if (number(argv[3], ~0ul, &vid) || number(argv[4], 0xffffffff, &cmd) ||
	    number(argv[5], MAX_PAYLOAD, &len) || len % 4)
		return usage();
	out = calloc(1, len + 4);
	in = calloc(1, len + 4);
	if (!out || !in)
		return 1;
	for (i = 6; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq)
			return usage();
		*eq = 0;
		if (number(argv[i], len - 4, &off) || off % 4 ||
		    number(eq + 1, 0xffffffff, &val))
			return usage();
		w32 = val;
		memcpy(out + off, &w32, 4);
	}

	memset(&req, 0, sizeof(req));
	req.r.msgcode = FC_BSG_HST_VENDOR;
	req.r.rqst_data.h_vendor.vendor_id = vid;
	req.r.rqst_data.h_vendor.vendor_cmd[0] = cmd;
	memset(&rep, 0, sizeof(rep));
	memset(&io, 0, sizeof(io));
	io.guard = 'Q';
	io.protocol = BSG_PROTOCOL_SCSI;
	io.subprotocol = BSG_SUB_PROTOCOL_SCSI_TRANSPORT;
	io.request_len = sizeof(req);
	io.request = (uintptr_t)&req;
	io.response = (uintptr_t)&rep;
	io.max_response_len = sizeof(rep);
	io.dout_xfer_len = len;
	io.dout_xferp = (uintptr_t)out;
	io.din_xfer_len = len;
	io.din_xferp = (uintptr_t)in;
	io.timeout = 60000;

	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "fc-bsg: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (ioctl(fd, SG_IO, &io) < 0) {
		fprintf(stderr, "fc-bsg: SG_IO: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	printf("result %d\n", (int)rep.result);
	for (off = 0; off < len; off += 4) {
		uint32_t w;

		memcpy(&w, in + off, 4);
		printf("%lu %08x\n", off, w);
	}
	return 0;
}
