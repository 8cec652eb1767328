/*
 * ServerEngines BladeEngine 2 iSCSI function model: the offload engine.
 *
 * For every connection the host offloads, the engine holds a TCP
 * connection to the real target the "target" property names (always on
 * the loopback: the portal the guest asks for is mapped there) and runs
 * the initiator's side of RFC 7143 on it, as the card's firmware does:
 *
 *  - while logging in, the host builds every PDU; the engine sends it as
 *    it is and hands all that arrives to the host through the default PDU
 *    header and data rings;
 *  - once the host sends the connection's negotiated parameters (the
 *    context update WRB), the engine runs SCSI commands itself: immediate
 *    and unsolicited data, R2T and Data-Out, Data-In into the host's SGLs,
 *    the SCSI Response with status, residual and sense, one completion per
 *    command; it keeps StatSN and fills ExpStatSN into what it sends, and
 *    adds and checks CRC32C digests when they were negotiated.
 *
 * Faults for the tests are set at run time with qom-set (see the end).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/crc32c.h"
#include "qemu/cutils.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/sockets.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "be2-iscsi.h"

#define BHS                 48
#define TASKS               256     /* WRB indices of a connection */
#define TASK_SGES           30      /* data elements of an ICD's SGL */
#define ICD_BYTES           512
#define SENSE_OFF           64      /* in the task's BHS buffer */
#define SENSE_MAX           258
#define RX_DSL_MAX          (256 * 1024)
#define DEFQ_DATA_MAX       8192
/*
 * What goes to the host through the default rings (login and text
 * responses, the target's NOP-Ins) reaches it a little later than it
 * arrives, as through a card's firmware.  Handed over at once, iscsiadm's
 * (2.1.8) SendTargets session through the card times out about every
 * other time: the response comes while iscsiadm is still in the call
 * that sent the request.
 */
#define RAW_LATENCY_MS      20

/* iSCSI opcodes (RFC 7143 11.1.1) */
enum {
    OP_NOP_OUT = 0x00, OP_SCSI_CMD = 0x01, OP_TMF_REQ = 0x02,
    OP_DATA_OUT = 0x05,
    OP_NOP_IN = 0x20, OP_SCSI_RSP = 0x21, OP_TMF_RSP = 0x22,
    OP_LOGIN_RSP = 0x23, OP_TEXT_RSP = 0x24, OP_DATA_IN = 0x25,
    OP_LOGOUT_RSP = 0x26, OP_R2T = 0x31, OP_ASYNC = 0x32, OP_REJECT = 0x3f,
};

#define FL_FINAL            0x80
#define FL_WRITE            0x20
#define FL_STATUS           0x01    /* Data-In carries the status */
#define NO_TAG              0xffffffffu

/* WRB types */
enum {
    WRB_TMF_LOGOUT = 2, WRB_WRITE = 1, WRB_READ = 5, WRB_CTX_UPDATE = 7,
    WRB_RAW = 11,
};

/* completion codes on the iSCSI completion queue */
enum {
    CQE_SOL_DONE = 1, CQE_DATA_DIGEST = 2, CQE_PDU_TOO_BIG = 3,
    CQE_UNKNOWN_HDR = 7, CQE_BAD_ITT = 9, CQE_RST_RCVD = 10,
    CQE_BAD_WRB = 15, CQE_BAD_R2T = 19,
    CQE_RST_SENT = 12, CQE_FIN_RCVD = 13, CQE_UNSOL_HDR = 28,
    CQE_UNSOL_DATA = 29, CQE_DRIVER_MSG = 31,
};

typedef struct Be2Sge {
    uint64_t pa;
    uint32_t len;
} Be2Sge;

/* An initiator task the engine runs, named by its WRB index. */
typedef struct Be2Task {
    bool live;
    bool write;
    bool hung;              /* its status was held back by io-hang */
    uint8_t tmf;            /* a task management request: its function */
    uint16_t lun;
    uint32_t ref_itt;       /* what an ABORT TASK names */
    uint32_t itt;
    uint32_t edtl;
    uint64_t bhs;
    unsigned nsge;
    Be2Sge sge[TASK_SGES];
} Be2Task;

struct Be2Conn {
    Be2State *s;
    uint16_t cid;
    uint16_t cq;
    uint8_t hdr_ring, data_ring;
    int fd;

    bool offloaded;
    bool bound;             /* the host has posted on it */
    bool dead;              /* TCP gone or invalidated: nothing moves */
    uint8_t kill_code;      /* to report once bound, 0 if none */
    bool logged_out;
    bool stalled;           /* a PDU waits for host resources */
    bool held;              /* the delay fault holds the PDU... */
    bool hold_done;         /* ...and has let it go */
    QEMUTimer *hold;

    /* what the context update negotiated */
    uint32_t max_burst, max_xmit, first_burst;
    bool hd, dd;
    uint32_t exp_statsn;

    GByteArray *tx;
    size_t tx_off;

    uint8_t *rx;
    size_t rx_cap, rx_len, rx_want;
    bool rx_sized;

    Be2Task *task;          /* TASKS of them */
};

/* ---- helpers ------------------------------------------------------------- */

static uint32_t dsl_of(const uint8_t *bhs)
{
    return ldl_be_p(bhs + 4) & 0xffffff;
}

/* The LUN a command or TMF names (single level, peripheral or flat). */
static uint16_t lun_of(const uint8_t *bhs)
{
    return (bhs[8] & 0x3f) << 8 | bhs[9];
}

static uint32_t pad4(uint32_t n)
{
    return (n + 3) & ~3u;
}

/* CRC32C as iSCSI sends it (QEMU's crc32c() inverts the result) */
static uint32_t digest(const uint8_t *p, size_t n)
{
    return crc32c(0xffffffff, p, n);
}

/* a bus address as the card's structures hold it: high word first */
static uint64_t ld_hi_lo(const uint8_t *p)
{
    return (uint64_t)(uint32_t)ldl_le_p(p) << 32 | (uint32_t)ldl_le_p(p + 4);
}

/* a >= b in serial number arithmetic (RFC 1982) */
static bool sn_ge(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) >= 0;
}

static void conn_watch(Be2Conn *c);
static void conn_readable(void *opaque);
static void conn_kill(Be2Conn *c, uint8_t code);

/* ---- completions --------------------------------------------------------- */

static bool cq_post(Be2Conn *c, const uint8_t *e)
{
    return be2_cq_post(c->s, c->cq, e);
}

static void cqe_solicited(Be2Conn *c, unsigned wrb, const uint8_t *rsp,
                          uint8_t sts, uint8_t resp, uint32_t resid)
{
    uint8_t e[16];
    uint32_t exp = ldl_be_p(rsp + 28), max = ldl_be_p(rsp + 32);
    int32_t wnd = (int32_t)(max - exp) + 1;

    wnd = MAX(0, MIN(wnd, 255));
    stl_le_p(e, sts << 8 | resp << 16 | (rsp[1] & 0x7fu) << 24);
    stl_le_p(e + 4, exp);
    stl_le_p(e + 8, CQE_SOL_DONE | (c->cid & 0x3ffu) << 6 | wrb << 16 |
             (uint32_t)wnd << 24);
    stl_le_p(e + 12, (resid & 0x7fffffff) | 1u << 31);
    cq_post(c, e);
}

static void cqe_code(Be2Conn *c, uint8_t code, unsigned wrb)
{
    uint8_t e[16] = { 0 };

    stl_le_p(e + 8, code | (c->cid & 0x3ffu) << 6 | wrb << 16);
    stl_le_p(e + 12, 1u << 31);
    cq_post(c, e);
}

/*
 * A hostile entry for the I/O completion queue: one that names what does
 * not exist (a CID past the card's range, a WRB index past the connection's
 * ring, a default ring entry past the ring's end, a code the card never
 * sends), so that a driver which checks what it reads drops it and loses
 * nothing.  Never a plausible completion of a command in flight.
 */
void be2_ofl_fuzz_cqe(Be2State *s, GRand *r, uint8_t *e)
{
    static const uint8_t unsent[] = { 0, 36, 41, 47, 50, 55, 60, 63 };
    Be2Conn *open[BE2_CIDS];
    unsigned nopen = 0, i, cid, kind;
    uint32_t wrbs;

    for (i = 0; i < BE2_CIDS; i++) {
        if (s->conn[i] && !s->conn[i]->dead) {
            open[nopen++] = s->conn[i];
        }
    }
    /* past the card's CIDs: no connection is opening or closing there */
    cid = g_rand_int_range(r, BE2_CIDS, 0x400);
    kind = g_rand_int_range(r, 0, 6);
    for (i = 0; i < 12; i += 4) {
        stl_le_p(e + i, g_rand_int(r));
    }
    if (nopen && (kind == 1 || kind == 2 || kind == 4)) {
        Be2Conn *c = open[g_rand_int_range(r, 0, nopen)];

        wrbs = s->wrbq[c->cid].entries;
        cid = c->cid;
        if (kind != 2 && wrbs >= 256) {
            kind = 2;       /* no WRB index lies past this ring */
        }
        if (kind == 2) {
            stl_le_p(e + 8, unsent[g_rand_int_range(r, 0, sizeof(unsent))] |
                     cid << 6 | g_rand_int_range(r, 0, 256) << 16);
        } else {
            stl_le_p(e + 8, (kind == 1 ? CQE_SOL_DONE : CQE_DRIVER_MSG) |
                     cid << 6 | g_rand_int_range(r, wrbs, 256) << 16 |
                     g_rand_int_range(r, 0, 256) << 24);
        }
        stl_le_p(e + 12, g_rand_int_range(r, 0, 1u << 30) | 1u << 31);
        return;
    }
    if ((kind == 3 || kind == 5) && s->defq[kind == 5].entries < 0x10000) {
        /* a default ring entry of no connection, past the ring's end */
        stl_le_p(e + 8, (kind == 3 ? CQE_UNSOL_HDR : CQE_UNSOL_DATA) |
                 cid << 6 | g_rand_int_range(r, 0, 0x10000) << 16);
        stl_le_p(e + 12, g_rand_int_range(r, s->defq[kind == 5].entries,
                                          0x10000) |
                 g_rand_int_range(r, 0, 2) << 30 | 1u << 31);
        return;
    }
    stl_le_p(e + 8, CQE_SOL_DONE | cid << 6 | g_rand_int_range(r, 0, 256)
             << 16 | g_rand_int_range(r, 0, 256) << 24);
    stl_le_p(e + 12, g_rand_int_range(r, 0, 1u << 30) | 1u << 31);
}

/* ---- the socket ---------------------------------------------------------- */

static void conn_flush(Be2Conn *c)
{
    while (!c->dead && !c->s->unreachable && c->tx_off < c->tx->len) {
        ssize_t n = send(c->fd, c->tx->data + c->tx_off,
                         c->tx->len - c->tx_off, MSG_NOSIGNAL);

        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                conn_kill(c, CQE_RST_RCVD);
            }
            break;
        }
        c->tx_off += n;
    }
    if (c->tx_off == c->tx->len) {
        g_byte_array_set_size(c->tx, 0);
        c->tx_off = 0;
    } else if (c->tx_off > 1024 * 1024) {
        g_byte_array_remove_range(c->tx, 0, c->tx_off);
        c->tx_off = 0;
    }
    conn_watch(c);
}

static void conn_writable(void *opaque)
{
    conn_flush(opaque);
}

/*
 * Queue a PDU: the 48-byte header (its length field set here) and dlen
 * bytes of data, with padding and, once offloaded, ExpStatSN and digests.
 */
static void tx_pdu(Be2Conn *c, uint8_t *bhs, const uint8_t *data,
                   uint32_t dlen)
{
    static const uint8_t zero[4];
    uint8_t d[4];
    uint32_t crc;

    bhs[4] = 0;
    bhs[5] = dlen >> 16;
    bhs[6] = dlen >> 8;
    bhs[7] = dlen;
    if (c->offloaded) {
        stl_be_p(bhs + 28, c->exp_statsn);
    }
    g_byte_array_append(c->tx, bhs, BHS);
    if (c->hd) {
        stl_le_p(d, digest(bhs, BHS));
        g_byte_array_append(c->tx, d, 4);
    }
    if (dlen) {
        g_byte_array_append(c->tx, data, dlen);
        g_byte_array_append(c->tx, zero, pad4(dlen) - dlen);
        if (c->dd) {
            crc = digest(data, dlen);
            crc = crc32c(~crc, zero, pad4(dlen) - dlen);
            stl_le_p(d, crc);
            g_byte_array_append(c->tx, d, 4);
        }
    }
}

/* ---- tasks and their memory ---------------------------------------------- */

/* Move len bytes at offset off of the task's buffer to or from buf. */
static bool task_dma(Be2Conn *c, Be2Task *t, uint32_t off, uint8_t *buf,
                     uint32_t len, bool to_host)
{
    unsigned i;

    for (i = 0; i < t->nsge && len; i++) {
        uint32_t n;

        if (off >= t->sge[i].len) {
            off -= t->sge[i].len;
            continue;
        }
        n = MIN(len, t->sge[i].len - off);
        if (to_host ? !be2_dma_write(c->s, t->sge[i].pa + off, buf, n,
                                     "Data-In")
                    : !be2_dma_read(c->s, t->sge[i].pa + off, buf, n,
                                    "Data-Out")) {
            return false;
        }
        buf += n;
        len -= n;
        off = 0;
    }
    if (len) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: SGL of task 0x%x is short of "
                      "%u bytes\n", TYPE_BE2_ISCSI, t->itt, len);
        return false;
    }
    return true;
}

/* Take the data elements of ICD icd's SGL for a transfer of edtl bytes. */
static bool task_sgl(Be2Conn *c, Be2Task *t, unsigned icd)
{
    uint8_t sgl[ICD_BYTES];
    uint64_t total = 0, page;
    unsigned i;

    t->nsge = 0;
    if (!t->edtl) {
        return true;
    }
    page = icd < BE2_ICDS ? c->s->sgl_page[icd * ICD_BYTES / 4096] : 0;
    if (!page || !be2_dma_read(c->s, page + icd * ICD_BYTES % 4096, sgl,
                               sizeof(sgl), "ICD SGL")) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: ICD %u has no SGL page\n",
                      TYPE_BE2_ISCSI, icd);
        return false;
    }
    /* element 0 is the BHS buffer, element 1 unused, data from 2 */
    for (i = 2; i < 2 + TASK_SGES && total < t->edtl; i++) {
        const uint8_t *e = sgl + 16 * i;
        Be2Sge *g = &t->sge[t->nsge++];

        g->pa = ld_hi_lo(e);
        g->len = ldl_le_p(e + 12) & 0x1ffff;
        total += g->len;
        if (ldl_le_p(e + 8) & (1u << 31)) {
            break;
        }
    }
    if (total < t->edtl) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: ICD %u SGL holds %" PRIu64
                      " bytes of %u\n", TYPE_BE2_ISCSI, icd, total, t->edtl);
        return false;
    }
    return true;
}

/* Send Data-Out PDUs for [off, off + len) of a write, ttt as given. */
static bool send_data_out(Be2Conn *c, Be2Task *t, const uint8_t *lun,
                          uint32_t ttt, uint32_t off, uint32_t len)
{
    g_autofree uint8_t *buf = g_malloc(MIN(len, c->max_xmit));
    uint32_t sn = 0;

    while (len) {
        uint32_t n = MIN(len, c->max_xmit);
        uint8_t bhs[BHS] = { OP_DATA_OUT };

        if (!task_dma(c, t, off, buf, n, false)) {
            return false;
        }
        bhs[1] = n == len ? FL_FINAL : 0;
        memcpy(bhs + 8, lun, 8);
        stl_be_p(bhs + 16, t->itt);
        stl_be_p(bhs + 20, ttt);
        stl_be_p(bhs + 36, sn++);
        stl_be_p(bhs + 40, off);
        tx_pdu(c, bhs, buf, n);
        off += n;
        len -= n;
    }
    return true;
}

/* ---- what the host posts ------------------------------------------------- */

static void wrb_ctx_update(Be2Conn *c, const uint8_t *w)
{
    uint32_t dw4 = ldl_le_p(w + 16);

    c->max_burst = (ldl_le_p(w + 4) >> 8) & 0x7ffff;
    c->max_xmit = (uint32_t)ldl_le_p(w + 8) >> 15;
    c->first_burst = ldl_le_p(w + 12) & 0x3fff;
    c->hd = dw4 & (1u << 17);
    c->dd = dw4 & (1u << 18);
    c->exp_statsn = ldl_le_p(w + 20);
    if (!c->max_xmit) {
        c->max_xmit = 8192;
    }
    if (!c->max_burst) {
        c->max_burst = 262144;
    }
    c->offloaded = true;
}

/* A PDU the host built whole: login, text, NOP-Out, TMF, logout. */
static bool wrb_mgmt(Be2Conn *c, const uint8_t *w, const uint8_t *bhs_in,
                     unsigned idx)
{
    uint8_t bhs[BHS];
    uint32_t dlen = dsl_of(bhs_in), room = ldl_le_p(w + 44) & 0x1ffff;
    uint64_t data = ld_hi_lo(w + 32);
    g_autofree uint8_t *buf = NULL;

    memcpy(bhs, bhs_in, BHS);
    if (bhs[4] || dlen > room || dlen > 65536) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: PDU 0x%x on connection %u with "
                      "%u AHS words and %u data bytes in a %u-byte buffer\n",
                      TYPE_BE2_ISCSI, bhs[0], c->cid, bhs[4], dlen, room);
        return false;
    }
    if (dlen) {
        buf = g_malloc(dlen);
        if (!be2_dma_read(c->s, data, buf, dlen, "PDU data")) {
            return false;
        }
    }
    tx_pdu(c, bhs, buf, dlen);
    return true;
}

static bool wrb_scsi(Be2Conn *c, Be2Task *t, const uint8_t *w, uint8_t *bhs)
{
    uint32_t imm = dsl_of(bhs), unsol;
    g_autofree uint8_t *buf = NULL;

    t->write = bhs[1] & FL_WRITE;
    if (!task_sgl(c, t, ldl_le_p(w + 8) & 0xfff)) {
        return false;
    }
    if (bhs[4] || imm > t->edtl || imm > c->max_xmit ||
        (!t->write && imm)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: SCSI command 0x%x with %u "
                      "immediate bytes of %u\n", TYPE_BE2_ISCSI, t->itt, imm,
                      t->edtl);
        return false;
    }
    if (imm) {
        buf = g_malloc(imm);
        if (!task_dma(c, t, 0, buf, imm, false)) {
            return false;
        }
    }
    tx_pdu(c, bhs, buf, imm);
    if (t->write && !(bhs[1] & FL_FINAL)) {
        /* unsolicited Data-Out up to the first burst */
        unsol = MIN(t->edtl, MAX(c->first_burst, imm));
        if (unsol > imm &&
            !send_data_out(c, t, bhs + 8, NO_TAG, imm, unsol - imm)) {
            return false;
        }
    }
    return true;
}

static void wrb_post(Be2Conn *c, unsigned idx)
{
    Be2State *s = c->s;
    uint8_t w[64], bhs[BHS];
    uint32_t dw0;
    uint64_t bhs_pa;
    unsigned type;
    Be2Task *t;
    bool ok;

    c->bound = true;
    if (c->dead) {
        if (c->kill_code) {
            cqe_code(c, c->kill_code, 0);
            c->kill_code = 0;
        }
        return;
    }
    if (!be2_dma_read(s, be2_q_entry(&s->wrbq[c->cid], idx), w, sizeof(w),
                      "WRB")) {
        return;
    }
    dw0 = ldl_le_p(w);
    type = dw0 >> 28;
    if (dw0 & (1u << 15)) {
        return;                 /* invalidated before it was fetched */
    }
    if (((dw0 >> 16) & 0xff) != idx) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: WRB %u of connection %u says it "
                      "is %u\n", TYPE_BE2_ISCSI, idx, c->cid,
                      (dw0 >> 16) & 0xff);
        return;
    }
    if (type == WRB_CTX_UPDATE) {
        wrb_ctx_update(c, w);
        return;
    }
    bhs_pa = ld_hi_lo(w + 16);
    if (!be2_dma_read(s, bhs_pa, bhs, BHS, "BHS")) {
        return;
    }
    t = &c->task[idx];
    t->live = false;
    t->itt = ldl_be_p(bhs + 16);
    t->hung = false;
    t->lun = lun_of(bhs);
    t->tmf = (bhs[0] & 0x3f) == OP_TMF_REQ ? bhs[1] & 0x7f : 0;
    t->ref_itt = ldl_be_p(bhs + 20);
    t->bhs = bhs_pa;
    t->edtl = 0;
    t->nsge = 0;
    switch (type) {
    case WRB_RAW:
        ok = wrb_mgmt(c, w, bhs, idx);
        if (ok && (dw0 & (1u << 25))) {
            /* a reply the host wants to hear has gone */
            cqe_code(c, CQE_DRIVER_MSG, idx);
        }
        break;
    case WRB_TMF_LOGOUT:
        ok = wrb_mgmt(c, w, bhs, idx);
        t->live = ok;
        break;
    case WRB_READ:
    case WRB_WRITE:
        if ((bhs[0] & 0x3f) == OP_NOP_OUT) {
            ok = wrb_mgmt(c, w, bhs, idx);
            t->live = ok;
            break;
        }
        if ((bhs[0] & 0x3f) != OP_SCSI_CMD || !c->offloaded) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: PDU 0x%x in an I/O WRB\n",
                          TYPE_BE2_ISCSI, bhs[0]);
            ok = false;
            break;
        }
        t->edtl = ldl_be_p(bhs + 20);
        ok = wrb_scsi(c, t, w, bhs);
        t->live = ok;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: WRB of type %u\n",
                      TYPE_BE2_ISCSI, type);
        ok = false;
    }
    if (!ok) {
        /* what the card does with a WRB it cannot carry out */
        conn_kill(c, CQE_BAD_WRB);
    }
    conn_flush(c);
}

void be2_ofl_wrb_doorbell(Be2State *s, uint32_t v)
{
    unsigned cid = v & 0xffff, idx = (v >> 16) & 0xff;

    if (cid >= BE2_CIDS || !s->conn[cid]) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: WRB %u posted on connection %u, "
                      "which is not open\n", TYPE_BE2_ISCSI, idx, cid);
        return;
    }
    if ((v >> 24) != 1) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %u WRBs in one doorbell\n",
                      TYPE_BE2_ISCSI, v >> 24);
    }
    /*
     * The engine takes the WRB after the posted write has gone, as the
     * card's processor does: the host does not wait for it.
     */
    if (s->wrb_db_count == BE2_WRB_DB_SLOTS) {
        be2_ofl_run_doorbells(s);
    }
    s->wrb_db[(s->wrb_db_first + s->wrb_db_count) % BE2_WRB_DB_SLOTS] = v;
    s->wrb_db_count++;
    qemu_bh_schedule(s->wrb_bh);
}

/*
 * Carry out the WRB doorbells not taken yet, in the order of posting; a
 * command on the mailbox or the MCC ring runs this first, so that it sees
 * every WRB the host posted before it.
 */
void be2_ofl_run_doorbells(Be2State *s)
{
    while (s->wrb_db_count) {
        uint32_t v = s->wrb_db[s->wrb_db_first];
        unsigned cid = v & 0xffff;

        s->wrb_db_first = (s->wrb_db_first + 1) % BE2_WRB_DB_SLOTS;
        s->wrb_db_count--;
        if (cid < BE2_CIDS && s->conn[cid]) {
            wrb_post(s->conn[cid], (v >> 16) & 0xff);
        }
    }
}

static void wrb_doorbells(void *opaque)
{
    be2_ofl_run_doorbells(opaque);
}

/* ---- what the target sends ----------------------------------------------- */

/* The next buffer of default ring r, false if the host has posted none. */
static bool defq_take(Be2State *s, unsigned r, uint64_t *pa, unsigned *idx,
                      unsigned *cons)
{
    Be2Queue *q = &s->defq[r];
    uint8_t e[8];

    if (!q->live || !q->pending) {
        return false;
    }
    if (!be2_dma_read(s, be2_q_entry(q, q->head), e, sizeof(e),
                      "default PDU ring")) {
        return false;
    }
    *pa = ld_hi_lo(e);
    *idx = q->head;
    q->head = (q->head + 1) % q->entries;
    q->pending--;
    /* consumption is told to the host in groups of eight */
    *cons = ++q->spent == 8;
    if (*cons) {
        q->spent = 0;
    }
    return true;
}

static void cqe_unsol(Be2Conn *c, uint8_t code, uint64_t pa, uint32_t dpl,
                      unsigned idx, unsigned cons, bool final)
{
    uint8_t e[16];

    stl_le_p(e, pa >> 32);
    stl_le_p(e + 4, (uint32_t)pa + dpl);
    stl_le_p(e + 8, code | (c->cid & 0x3ffu) << 6 | dpl << 16);
    stl_le_p(e + 12, idx | cons << 16 | (uint32_t)final << 30 | 1u << 31);
    cq_post(c, e);
}

/* Hand a PDU to the host through the default rings; false: no room yet. */
static bool rx_unsolicited(Be2Conn *c, const uint8_t *bhs,
                           const uint8_t *data, uint32_t dlen)
{
    Be2State *s = c->s;
    unsigned chunks = DIV_ROUND_UP(dlen, DEFQ_DATA_MAX), idx, cons;
    uint64_t pa;
    uint32_t off, n;

    if (s->defq[c->hdr_ring].pending < 1 ||
        s->defq[c->data_ring].pending < chunks ||
        be2_cq_room(s, c->cq) < chunks + 2) {
        return false;
    }
    defq_take(s, c->hdr_ring, &pa, &idx, &cons);
    if (!be2_dma_write(s, pa, bhs, BHS, "PDU header")) {
        return true;
    }
    cqe_unsol(c, CQE_UNSOL_HDR, pa, BHS, idx, cons, !dlen);
    for (off = 0; off < dlen; off += n) {
        n = MIN(dlen - off, DEFQ_DATA_MAX);
        defq_take(s, c->data_ring, &pa, &idx, &cons);
        if (!be2_dma_write(s, pa, data + off, n, "PDU data")) {
            return true;
        }
        cqe_unsol(c, CQE_UNSOL_DATA, pa, n, idx, cons, off + n == dlen);
    }
    return true;
}

/* The live task an incoming ITT names, or NULL (stale or invalidated). */
static Be2Task *task_of(Be2Conn *c, uint32_t itt, unsigned *idx)
{
    Be2Task *t;

    *idx = (itt >> 16) & 0xff;
    t = &c->task[*idx];
    return (itt >> 24) == 0 && t->live && t->itt == itt ? t : NULL;
}

/*
 * io-hang: the target does the hung LUN's commands but their statuses
 * never leave it, until task management wide enough reaches the LUN.
 */
static bool hang_holds(Be2Conn *c, Be2Task *t)
{
    if (!c->s->io_hang || t->lun != c->s->hang_lun) {
        return false;
    }
    t->hung = true;
    return true;
}

enum {
    TMF_ABORT_TASK = 1, TMF_ABORT_TASK_SET = 2, TMF_CLEAR_TASK_SET = 4,
    TMF_LUN_RESET = 5, TMF_TARGET_WARM_RESET = 6, TMF_TARGET_COLD_RESET = 7,
};

/*
 * A task management response for the host, with io-hang set: an abort of
 * a held command ends the hang at level 1, answered as done (the target
 * had the command); task set and LUN resets of the LUN end it at level
 * 2, target resets at 3 (whatever the target answers).  Level 4 only
 * ends with a new connection: the session's recovery.
 */
static void hang_tmf(Be2Conn *c, const Be2Task *t, uint8_t *bhs)
{
    Be2State *s = c->s;
    unsigned k;

    switch (t->tmf) {
    case TMF_ABORT_TASK:
        for (k = 0; k < TASKS && s->io_hang == BE2_HANG_ABORT; k++) {
            if (c->task[k].hung && c->task[k].itt == t->ref_itt) {
                c->task[k].hung = false;
                s->io_hang = 0;
                bhs[2] = 0;     /* function complete */
            }
        }
        break;
    case TMF_ABORT_TASK_SET:
    case TMF_CLEAR_TASK_SET:
    case TMF_LUN_RESET:
        if (t->lun == s->hang_lun && s->io_hang <= BE2_HANG_LUN) {
            s->io_hang = 0;
        }
        break;
    case TMF_TARGET_WARM_RESET:
    case TMF_TARGET_COLD_RESET:
        if (s->io_hang <= BE2_HANG_TARGET) {
            s->io_hang = 0;
        }
        break;
    }
}

static void rx_data_in(Be2Conn *c, const uint8_t *bhs, const uint8_t *data,
                       uint32_t dlen, bool digest_bad)
{
    uint32_t off = ldl_be_p(bhs + 40);
    unsigned idx;
    Be2Task *t = task_of(c, ldl_be_p(bhs + 16), &idx);

    if (!t) {
        return;
    }
    if (digest_bad) {
        /* the card kills the command; the host's abort cleans up */
        t->live = false;
        cqe_code(c, CQE_DATA_DIGEST, idx);
        return;
    }
    if (t->write || (uint64_t)off + dlen > t->edtl) {
        conn_kill(c, CQE_BAD_ITT);
        return;
    }
    if (dlen) {
        task_dma(c, t, off, (uint8_t *)data, dlen, true);
    }
    if (bhs[1] & FL_STATUS) {
        if (hang_holds(c, t)) {
            return;
        }
        if (c->s->drop_responses) {
            c->s->drop_responses--;
            return;
        }
        t->live = false;
        cqe_solicited(c, idx, bhs, bhs[3], 0, ldl_be_p(bhs + 44));
    }
}

static void rx_scsi_rsp(Be2Conn *c, const uint8_t *bhs, const uint8_t *data,
                        uint32_t dlen)
{
    unsigned idx;
    Be2Task *t = task_of(c, ldl_be_p(bhs + 16), &idx);

    if (!t || hang_holds(c, t)) {
        return;
    }
    if (c->s->drop_responses) {
        c->s->drop_responses--;
        return;
    }
    if (dlen) {
        /* sense length and sense, where the host looks for them */
        be2_dma_write(c->s, t->bhs + SENSE_OFF, data, MIN(dlen, SENSE_MAX),
                      "sense");
    }
    t->live = false;
    cqe_solicited(c, idx, bhs, bhs[3], bhs[2], ldl_be_p(bhs + 44));
}

static void rx_r2t(Be2Conn *c, const uint8_t *bhs)
{
    uint32_t off = ldl_be_p(bhs + 40), len = ldl_be_p(bhs + 44);
    unsigned idx;
    Be2Task *t = task_of(c, ldl_be_p(bhs + 16), &idx);

    if (!t) {
        return;
    }
    if (!t->write || !len || len > c->max_burst ||
        (uint64_t)off + len > t->edtl) {
        conn_kill(c, CQE_BAD_R2T);
        return;
    }
    send_data_out(c, t, bhs + 8, ldl_be_p(bhs + 20), off, len);
}

static void rx_mgmt_rsp(Be2Conn *c, uint8_t *bhs)
{
    unsigned idx;
    Be2Task *t = task_of(c, ldl_be_p(bhs + 16), &idx);

    if (!t) {
        return;
    }
    if ((bhs[0] & 0x3f) == OP_TMF_RSP && c->s->io_hang) {
        hang_tmf(c, t, bhs);
    }
    t->live = false;
    if ((bhs[0] & 0x3f) == OP_LOGOUT_RSP) {
        c->logged_out = true;
    }
    cqe_solicited(c, idx, bhs, 0, (bhs[0] & 0x3f) == OP_NOP_IN ? 0 : bhs[2],
                  0);
}

static void track_statsn(Be2Conn *c, const uint8_t *bhs)
{
    uint8_t op = bhs[0] & 0x3f;
    uint32_t sn = ldl_be_p(bhs + 24);

    switch (op) {
    case OP_DATA_IN:
        if (!(bhs[1] & FL_STATUS)) {
            return;
        }
        break;
    case OP_NOP_IN:
        if (ldl_be_p(bhs + 16) == NO_TAG) {
            return;             /* StatSN not advanced (RFC 7143 11.19) */
        }
        break;
    case OP_SCSI_RSP:
    case OP_TMF_RSP:
    case OP_TEXT_RSP:
    case OP_LOGOUT_RSP:
    case OP_REJECT:
        break;
    default:
        return;
    }
    if (sn_ge(sn + 1, c->exp_statsn)) {
        c->exp_statsn = sn + 1;
    }
}

/* Whether a PDU goes to the host as it came, through the default rings */
static bool for_default_rings(Be2Conn *c, const uint8_t *bhs)
{
    uint8_t op = bhs[0] & 0x3f;

    return !c->offloaded || op == OP_LOGIN_RSP || op == OP_TEXT_RSP ||
           op == OP_ASYNC || op == OP_REJECT ||
           (op == OP_NOP_IN && ldl_be_p(bhs + 16) == NO_TAG);
}

/* Act on the whole PDU in rx; false if it must wait for the host. */
static bool rx_pdu(Be2Conn *c)
{
    uint8_t *bhs = c->rx;
    uint8_t op = bhs[0] & 0x3f;
    uint32_t dlen = dsl_of(bhs);
    uint32_t hlen = BHS + bhs[4] * 4;
    uint8_t *data = c->rx + hlen + (c->hd ? 4 : 0);
    bool bad_data = false;

    /* room for what it may complete, checked before any work on it */
    if (be2_cq_room(c->s, c->cq) < 4) {
        return false;
    }
    if (c->hd && ldl_le_p(c->rx + hlen) != digest(c->rx, hlen)) {
        warn_report("%s: header digest error from the target on connection "
                    "%u", TYPE_BE2_ISCSI, c->cid);
        conn_kill(c, CQE_RST_SENT);
        return true;
    }
    if (c->dd && dlen &&
        ldl_le_p(data + pad4(dlen)) != digest(data, pad4(dlen))) {
        warn_report("%s: data digest error from the target on connection "
                    "%u", TYPE_BE2_ISCSI, c->cid);
        bad_data = true;
    }
    if (for_default_rings(c, bhs)) {
        if (bad_data) {
            conn_kill(c, CQE_RST_SENT);
            return true;
        }
        if (!rx_unsolicited(c, bhs, data, dlen)) {
            return false;
        }
        track_statsn(c, bhs);
        return true;
    }
    if (bad_data && op != OP_DATA_IN) {
        conn_kill(c, CQE_RST_SENT);
        return true;
    }
    if (op == OP_DATA_IN) {
        rx_data_in(c, bhs, data, dlen, bad_data);
    } else if (op == OP_SCSI_RSP) {
        rx_scsi_rsp(c, bhs, data, dlen);
    } else if (op == OP_R2T) {
        rx_r2t(c, bhs);
    } else if (op == OP_NOP_IN || op == OP_TMF_RSP || op == OP_LOGOUT_RSP) {
        rx_mgmt_rsp(c, bhs);
    } else {
        warn_report("%s: PDU 0x%02x from the target on connection %u",
                    TYPE_BE2_ISCSI, op, c->cid);
        conn_kill(c, CQE_UNKNOWN_HDR);
        return true;
    }
    track_statsn(c, bhs);
    conn_flush(c);
    return true;
}

static void hold_expired(void *opaque)
{
    Be2Conn *c = opaque;

    c->held = false;
    c->hold_done = true;
    c->stalled = false;
    conn_readable(c);
}

/* Read what the socket has; act on each whole PDU. */
static void conn_readable(void *opaque)
{
    Be2Conn *c = opaque;

    while (!c->dead && !c->stalled && !c->s->unreachable) {
        ssize_t n;

        if (c->rx_len == c->rx_want && !c->rx_sized) {
            uint32_t dlen = dsl_of(c->rx);

            if (dlen > RX_DSL_MAX) {
                warn_report("%s: %u-byte PDU from the target on connection "
                            "%u", TYPE_BE2_ISCSI, dlen, c->cid);
                conn_kill(c, CQE_PDU_TOO_BIG);
                break;
            }
            c->rx_want = BHS + c->rx[4] * 4 + (c->hd ? 4 : 0) + pad4(dlen) +
                         (c->dd && dlen ? 4 : 0);
            c->rx_sized = true;
            if (c->rx_want > c->rx_cap) {
                c->rx_cap = c->rx_want;
                c->rx = g_realloc(c->rx, c->rx_cap);
            }
        }
        if (c->rx_len == c->rx_want) {
            uint32_t hold = MAX(c->s->delay_ms,
                                for_default_rings(c, c->rx) ?
                                RAW_LATENCY_MS : 0);

            if (hold && !c->hold_done) {
                c->held = true;
                c->stalled = true;
                timer_mod(c->hold, qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) +
                          hold);
                break;
            }
            if (!rx_pdu(c)) {
                c->stalled = true;
                break;
            }
            c->hold_done = false;
            c->rx_len = 0;
            c->rx_want = BHS;
            c->rx_sized = false;
            continue;
        }
        n = recv(c->fd, c->rx + c->rx_len, c->rx_want - c->rx_len, 0);
        if (n > 0) {
            c->rx_len += n;
        } else if (n == 0) {
            conn_kill(c, c->logged_out ? 0 : CQE_FIN_RCVD);
        } else if (errno == EINTR) {
            continue;
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            break;
        } else {
            conn_kill(c, CQE_RST_RCVD);
        }
    }
    conn_watch(c);
}

static void conn_watch(Be2Conn *c)
{
    bool up = !c->dead && !c->s->unreachable;

    if (c->fd < 0) {
        return;
    }
    qemu_set_fd_handler(c->fd, up && !c->stalled ? conn_readable : NULL,
                        up && c->tx_off < c->tx->len ? conn_writable : NULL,
                        c);
}

/* Resume the connections that waited for room the host has now given. */
static void ofl_resume(void *opaque)
{
    Be2State *s = opaque;
    unsigned i;

    for (i = 0; i < BE2_CIDS; i++) {
        Be2Conn *c = s->conn[i];

        /* harmless for one that waited for nothing: recv says EAGAIN */
        if (c && !c->held) {
            c->stalled = false;
            conn_flush(c);
            conn_readable(c);
        }
    }
}

void be2_ofl_kick(Be2State *s)
{
    if (s->ofl_bh) {
        qemu_bh_schedule(s->ofl_bh);
    }
}

/* ---- connection life ----------------------------------------------------- */

/* The TCP connection is gone; tell the host once it can hear it. */
static void conn_kill(Be2Conn *c, uint8_t code)
{
    unsigned i;

    if (c->dead) {
        return;
    }
    c->dead = true;
    c->kill_code = code;
    for (i = 0; i < TASKS; i++) {
        c->task[i].live = false;
    }
    if (c->fd >= 0) {
        qemu_set_fd_handler(c->fd, NULL, NULL, NULL);
        shutdown(c->fd, SHUT_RDWR);
    }
    if (c->kill_code && c->bound) {
        cqe_code(c, c->kill_code, 0);
        c->kill_code = 0;
    }
}

static void conn_free(Be2Conn *c, bool abort)
{
    if (c->fd >= 0) {
        qemu_set_fd_handler(c->fd, NULL, NULL, NULL);
        if (abort) {
            struct linger l = { .l_onoff = 1, .l_linger = 0 };

            setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
        }
        close(c->fd);
    }
    c->s->conn[c->cid] = NULL;
    timer_free(c->hold);
    g_byte_array_unref(c->tx);
    g_free(c->rx);
    g_free(c->task);
    g_free(c);
}

/* TCP connect and offload (v0): the response is a connection handle. */
uint32_t be2_ofl_connect(Be2State *s, uint8_t *p, uint32_t len)
{
    unsigned cid, cq, hdr, data;
    Error *err = NULL;
    Be2Conn *c;
    int fd;

    if (len < 64) {
        return ST_BAD_LENGTH;
    }
    cid = lduw_le_p(p + 42);
    cq = lduw_le_p(p + 44);
    hdr = lduw_le_p(p + 56);
    data = lduw_le_p(p + 58);
    if (cid >= BE2_CIDS || !s->wrbq[cid].live || cq >= BE2_MAX_CQ ||
        !s->cq[cq].live || hdr >= 2 || data >= 2 || hdr == data ||
        !s->defq[hdr].live || !s->defq[data].live ||
        (p[19] != 1 && p[19] != 0x10)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: connect on connection %u, "
                      "completion queue %u, rings %u/%u, address type %u\n",
                      TYPE_BE2_ISCSI, cid, cq, hdr, data, p[19]);
        return ST_ILLEGAL_FIELD;
    }
    if (s->conn[cid]) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: connection %u is open already\n",
                      TYPE_BE2_ISCSI, cid);
        return ST_FAILED;
    }
    if (s->link_down || s->unreachable ||
        (p[19] == 1 && buffer_is_zero(s->ip4, 4))) {
        /* no link, no route, or no address to send from */
        return ST_FAILED;
    }
    fd = inet_connect(s->target, &err);
    if (fd < 0) {
        warn_report_err(err);
        return ST_FAILED;
    }
    qemu_socket_set_nonblock(fd);
    socket_set_nodelay(fd);

    c = g_new(Be2Conn, 1);
    *c = (Be2Conn) {
        .s = s, .fd = fd, .cid = cid, .cq = cq,
        .hdr_ring = hdr, .data_ring = data,
        .max_xmit = 8192,       /* the default until the context update */
        .tx = g_byte_array_new(),
        .task = g_new0(Be2Task, TASKS),
        .rx_cap = BHS + 4, .rx_want = BHS,
    };
    c->rx = g_malloc(c->rx_cap);
    c->hold = timer_new_ms(QEMU_CLOCK_VIRTUAL, hold_expired, c);
    s->conn[cid] = c;
    conn_watch(c);
    if (s->io_hang == BE2_HANG_SESSION) {
        s->io_hang = 0;         /* the session is starting over */
    }

    stl_le_p(p + 16, ++s->conn_handles);
    stw_le_p(p + 20, cid);
    stw_le_p(p + 22, 0);
    return ST_OK;
}

/* Invalidate a connection: nothing more moves on it. */
uint32_t be2_ofl_invalidate(Be2State *s, const uint8_t *p)
{
    unsigned cid = lduw_le_p(p + 20), type = lduw_le_p(p + 24);
    Be2Conn *c = cid < BE2_CIDS ? s->conn[cid] : NULL;

    if (!c || (type != 0x8001 && type != 0x8002)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: invalidate (0x%x) of connection "
                      "%u, which is not open\n", TYPE_BE2_ISCSI, type, cid);
        return ST_ILLEGAL_FIELD;
    }
    if (!c->dead) {
        conn_kill(c, 0);
    }
    c->kill_code = 0;
    return ST_OK;
}

/* Upload: the connection's TCP state goes back; the CID is free. */
uint32_t be2_ofl_upload(Be2State *s, const uint8_t *p)
{
    unsigned cid = lduw_le_p(p + 16), type = lduw_le_p(p + 18);
    Be2Conn *c = cid < BE2_CIDS ? s->conn[cid] : NULL;

    if (!c || type < 1 || type > 4) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: upload (%u) of connection %u, "
                      "which is not open\n", TYPE_BE2_ISCSI, type, cid);
        return ST_ILLEGAL_FIELD;
    }
    conn_free(c, type != 1);
    return ST_OK;
}

/* Forget commands by ICD: no more data or completion for them. */
uint32_t be2_ofl_invalidate_icds(Be2State *s, const uint8_t *p, uint32_t len)
{
    uint32_t n, i, k;

    if (len < 540) {
        return ST_BAD_LENGTH;
    }
    n = ldl_le_p(p + 20);
    if (!n || n > 128) {
        return ST_ILLEGAL_FIELD;
    }
    for (i = 0; i < n; i++) {
        unsigned icd = lduw_le_p(p + 24 + 4 * i);
        unsigned cid = lduw_le_p(p + 26 + 4 * i);
        Be2Conn *c = cid < BE2_CIDS ? s->conn[cid] : NULL;

        for (k = 0; c && k < TASKS; k++) {
            if (c->task[k].live && (c->task[k].itt & 0xffff) == icd) {
                c->task[k].live = false;
            }
        }
    }
    return ST_OK;
}

void be2_ofl_defq_posted(Be2State *s, unsigned ring, unsigned count)
{
    Be2Queue *q = &s->defq[ring];

    q->pending = MIN(q->pending + count, q->entries);
    be2_ofl_kick(s);
}

/* A function reset or the device going: every connection drops. */
void be2_ofl_reset(Be2State *s)
{
    unsigned i;

    s->wrb_db_count = 0;

    for (i = 0; i < BE2_CIDS; i++) {
        if (s->conn[i]) {
            conn_free(s->conn[i], true);
        }
    }
}

/* ---- faults -------------------------------------------------------------- */

/*
 * Set at run time with qom-set on the device:
 *   reset-connections   true: every open connection is reset now
 *   target-unreachable  true: new connects fail and nothing moves on open
 *                       ones, as if the path to the target were cut
 *   delay-ms            each PDU from the target is held this long
 *   drop-responses      the next n SCSI statuses from the target are lost
 *   io-hang             1-4: the statuses of hang-lun's commands are held
 *                       back until an abort of one of them (1), a LUN
 *                       reset (2), a target reset (3) or a new connection
 *                       (4) reaches the target; then it reads back 0
 *   hang-lun            the LUN io-hang applies to
 *   connections         (read only) TCP connections open
 */
static void get_u32(Object *obj, Visitor *v, const char *name, void *opaque,
                    Error **errp)
{
    Be2State *s = BE2_ISCSI(obj);
    uint32_t val = 0;
    unsigned i;

    if (!strcmp(name, "delay-ms")) {
        val = s->delay_ms;
    } else if (!strcmp(name, "drop-responses")) {
        val = s->drop_responses;
    } else if (!strcmp(name, "io-hang")) {
        val = s->io_hang;
    } else if (!strcmp(name, "hang-lun")) {
        val = s->hang_lun;
    } else {
        for (i = 0; i < BE2_CIDS; i++) {
            val += s->conn[i] && !s->conn[i]->dead;
        }
    }
    visit_type_uint32(v, name, &val, errp);
}

static void set_u32(Object *obj, Visitor *v, const char *name, void *opaque,
                    Error **errp)
{
    Be2State *s = BE2_ISCSI(obj);
    uint32_t val;

    if (!visit_type_uint32(v, name, &val, errp)) {
        return;
    }
    if (!strcmp(name, "delay-ms")) {
        if (val > 600000) {
            error_setg(errp, "delay-ms is at most 600000");
            return;
        }
        s->delay_ms = val;
    } else if (!strcmp(name, "io-hang")) {
        if (val > BE2_HANG_SESSION) {
            error_setg(errp, "io-hang: 0 to %d", BE2_HANG_SESSION);
            return;
        }
        s->io_hang = val;
    } else if (!strcmp(name, "hang-lun")) {
        if (val > 0x3fff) {
            error_setg(errp, "hang-lun is at most 16383");
            return;
        }
        s->hang_lun = val;
    } else {
        s->drop_responses = val;
    }
}

static bool get_unreachable(Object *obj, Error **errp)
{
    return BE2_ISCSI(obj)->unreachable;
}

static void set_unreachable(Object *obj, bool v, Error **errp)
{
    Be2State *s = BE2_ISCSI(obj);

    s->unreachable = v;
    if (!v) {
        be2_ofl_kick(s);
    }
}

static bool get_reset(Object *obj, Error **errp)
{
    return false;
}

static void set_reset(Object *obj, bool v, Error **errp)
{
    Be2State *s = BE2_ISCSI(obj);
    unsigned i;

    for (i = 0; v && i < BE2_CIDS; i++) {
        if (s->conn[i]) {
            conn_kill(s->conn[i], CQE_RST_SENT);
        }
    }
}

void be2_ofl_realize(Be2State *s)
{
    s->ofl_bh = qemu_bh_new_guarded(ofl_resume, s,
                                    &DEVICE(s)->mem_reentrancy_guard);
    s->wrb_bh = qemu_bh_new_guarded(wrb_doorbells, s,
                                    &DEVICE(s)->mem_reentrancy_guard);
}

void be2_ofl_unrealize(Be2State *s)
{
    be2_ofl_reset(s);
    qemu_bh_delete(s->ofl_bh);
    s->ofl_bh = NULL;
    qemu_bh_delete(s->wrb_bh);
    s->wrb_bh = NULL;
}

void be2_ofl_class_init(ObjectClass *klass)
{
    object_class_property_add(klass, "delay-ms", "uint32", get_u32, set_u32,
                              NULL, NULL);
    object_class_property_add(klass, "drop-responses", "uint32", get_u32,
                              set_u32, NULL, NULL);
    object_class_property_add(klass, "io-hang", "uint32", get_u32, set_u32,
                              NULL, NULL);
    object_class_property_add(klass, "hang-lun", "uint32", get_u32, set_u32,
                              NULL, NULL);
    object_class_property_add(klass, "connections", "uint32", get_u32, NULL,
                              NULL, NULL);
    object_class_property_add_bool(klass, "target-unreachable",
                                   get_unreachable, set_unreachable);
    object_class_property_add_bool(klass, "reset-connections", get_reset,
                                   set_reset);
}
