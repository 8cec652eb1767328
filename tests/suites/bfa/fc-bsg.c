// SPDX-License-Identifier: GPL-2.0
/*
 * fc-bsg: send one FC transport bsg request to an fc_host and show the
 * answer, the way a vendor's management tool would.
 *
 *   fc-bsg DEV vendor VID CMD LEN [OFF=VALUE]...
 *   fc-bsg DEV els|ct PORT_ID LEN [OFF=VALUE]...
 *
 * vendor sends FC_BSG_HST_VENDOR for vendor VID with command word CMD;
 * els and ct send an ELS (FC_BSG_HST_ELS_NOLOGIN) or a CT request
 * (FC_BSG_HST_CT, the payload starting with the CT header) to PORT_ID.
 * The request payload has LEN bytes, zero but for the 32-bit VALUEs at
 * byte offsets OFF (host order for vendor, wire order for els and ct);
 * the reply payload has room for as many.  Prints "result R" (the
 * driver's result), for els and ct "received N" (the reply's length),
 * and then "OFF VALUE" for every 32-bit word of the reply payload, in
 * hex, in the same order as the request's.  Exits 0 when the request
 * completed, whatever its result; 2 on bad arguments, 1 when it failed.
 */
#include <arpa/inet.h>
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
	fprintf(stderr, "usage: fc-bsg DEV vendor VID CMD LEN [OFF=VALUE]...\n"
		"       fc-bsg DEV els|ct PORT_ID LEN [OFF=VALUE]...\n");
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
	unsigned long vid = 0, cmd = 0, len, off, val;
	uint8_t *out, *in;
	uint32_t w32;
	int fd, i, first, wire;

	if (argc < 5)
		return usage();
	memset(&req, 0, sizeof(req));
	wire = strcmp(argv[2], "vendor") != 0;
	if (!wire) {
		if (argc < 6 || number(argv[3], ~0ul, &vid) ||
		    number(argv[4], 0xffffffff, &cmd))
			return usage();
		req.r.msgcode = FC_BSG_HST_VENDOR;
		req.r.rqst_data.h_vendor.vendor_id = vid;
		req.r.rqst_data.h_vendor.vendor_cmd[0] = cmd;
		first = 5;
	} else if (!strcmp(argv[2], "els") || !strcmp(argv[2], "ct")) {
		uint8_t *pid;

		if (number(argv[3], 0xffffff, &vid))
			return usage();
		if (!strcmp(argv[2], "els")) {
			req.r.msgcode = FC_BSG_HST_ELS_NOLOGIN;
			pid = req.r.rqst_data.h_els.port_id;
		} else {
			req.r.msgcode = FC_BSG_HST_CT;
			pid = req.r.rqst_data.h_ct.port_id;
		}
		pid[0] = vid >> 16;
		pid[1] = vid >> 8;
		pid[2] = vid;
		first = 4;
	} else {
		return usage();
	}
	if (number(argv[first], MAX_PAYLOAD, &len) || len < 4 || len % 4)
		return usage();
	out = calloc(1, len + 4);
	in = calloc(1, len + 4);
	if (!out || !in)
		return 1;
	for (i = first + 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq)
			return usage();
		*eq = 0;
		if (number(argv[i], len - 4, &off) || off % 4 ||
		    number(eq + 1, 0xffffffff, &val))
			return usage();
		w32 = wire ? htonl(val) : val;
		memcpy(out + off, &w32, 4);
	}
	if (req.r.msgcode == FC_BSG_HST_ELS_NOLOGIN)
		req.r.rqst_data.h_els.command_code = out[0];

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
	if (wire)
		printf("received %u\n", rep.reply_payload_rcv_len);
	for (off = 0; off < len; off += 4) {
		uint32_t w;

		memcpy(&w, in + off, 4);
		printf("%lu %08x\n", off, wire ? ntohl(w) : w);
	}
	return 0;
}
