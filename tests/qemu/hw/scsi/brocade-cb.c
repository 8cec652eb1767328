/*
 * Brocade 825 Fibre Channel HBA (Crossbow ASIC, PCI 1657:0013) model.
 *
 * The model presents the register file the card's host interface has and
 * plays the part of the card's firmware: it checks and "boots" the image the
 * driver downloads into shared memory, answers the IOC mailbox protocol and
 * serves the request/response rings the host sets up in its own memory.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/cutils.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/pci/msix.h"
#include "hw/qdev-properties.h"
#include "sysemu/dma.h"
#include "scsi/constants.h"
#include "migration/vmstate.h"
#include <zlib.h>
#include "brocade-cb.h"

/* ---- register file (BAR0) ---------------------------------------------- */

/* per function: interrupt cause, interrupt mask, shared-memory page */
#define R_FN(fn)            (0x14000 + 0x100 * (fn))
#define R_CAUSE(fn)         (R_FN(fn) + 0x0)
#define R_MASK(fn)          (R_FN(fn) + 0x4)
#define R_PAGE(fn)          (R_FN(fn) + 0x8)

#define R_SEM(n)            (0x14230 + 4 * (n))    /* hardware semaphores */
#define R_HEARTBEAT(p)      (0x14240 + 8 * (p))
#define R_FWSTATE(p)        (0x14244 + 8 * (p))

#define R_PSS               0x18800
#define R_PSS_ERR           0x18810
#define R_ERR_SET           0x18818
#define R_FLASH_SEM         0x18820
#define R_FLASH_FIRST       0x1d000
#define R_FLASH_LAST        0x1d014

/* mailbox: doorbell and data towards the firmware, and back */
#define R_DOORBELL(fn)      (0x19000 + 0x14 * (fn))
#define R_MBSTAT(fn)        (0x19008 + 0x14 * (fn))
#define R_MBIN(fn)          (0x19200 + 0x60 * (fn))
#define R_MBOUT(fn)         (0x19280 + 0x60 * (fn))

/* ring index registers, hardware queue hq = 4 * fn + q */
#define R_REQ_PI(hq)        (0x1001c + 0x20 * (hq))
#define R_REQ_CI(hq)        (0x10020 + 0x20 * (hq))
#define R_REQ_CTL(hq)       (0x10014 + 0x20 * (hq))
#define R_RSP_PI(hq)        (0x1101c + 0x20 * (hq))
#define R_RSP_CI(hq)        (0x11020 + 0x20 * (hq))
#define R_RSP_CTL(hq)       (0x11014 + 0x20 * (hq))

#define SMEM_WINDOW         0x8000
#define SMEM_WINDOW_SIZE    0x8000
#define SMEM_FIRST_PAGE     0x40

/* PSS control bits */
#define PSS_LPU0_HALT       (1u << 0)
#define PSS_LPU1_HALT       (1u << 1)
#define PSS_LMEM_INIT       (1u << 8)
#define PSS_LMEM_RESET      (1u << 9)
#define PSS_LMEM_DONE       (1u << 12)

/* interrupt causes */
#define CAUSE_REQ(fn, q)    (1u << (4 * (fn) + (q)))
#define CAUSE_RSP(fn, q)    (1u << (8 + 4 * (fn) + (q)))
#define CAUSE_ERRORS        0x000f0000u
#define CAUSE_ERR_LPU0      (1u << 17)
#define CAUSE_ERR_PSS       (1u << 19)
#define CAUSE_MBOX(fn)      (1u << (20 + (fn)))
#define CAUSES_OF(fn)       (0x0f0fu << (4 * (fn)) | CAUSE_ERRORS | \
                             CAUSE_MBOX(fn))

/* firmware state word: low half the state, high half the drivers joined */
#define FWST_OP             4
#define FWST_DISABLED       6
#define FWST_STATE          0xffffu

#define MSIX_ENTRIES        22

/* ---- firmware image ---------------------------------------------------- */

/*
 * The head of the image, as the driver finds it in its file and as it lands
 * in shared memory byte for byte.  The project's image generator
 * (tests/qemu/mkfw) writes the same layout.
 */
#define IMG_SIGNATURE       0xbfadbfadu  /* little-endian at offset 0 */
#define IMG_DEVMODE         4            /* rewritten by the driver */
#define IMG_LENGTH          16           /* le32: whole image, in bytes */
#define IMG_CRC             20           /* le32: CRC-32 (zlib) of the body */
#define IMG_BODY            48

/* ---- messages ---------------------------------------------------------- */

/* header: class, id, then queue/token and destination */
#define M_CLASS             0
#define M_ID                1
#define M_TOKEN             2
#define M_DEST              3
/* the index bits of an I/O tag; above them a driver keeps what it likes */
#define IO_TAG_MASK         0x7ff

#define REPLY(id)           ((id) | 0x80)

enum {
    MC_IOC = 1, MC_DIAG = 2, MC_FLASH = 3, MC_CEE = 4, MC_FCPORT = 5,
    MC_IOCFC = 6, MC_ABLK = 7, MC_UF = 8, MC_FCXP = 9, MC_LPS = 10,
    MC_RPORT = 11, MC_ITN = 12, MC_IOIM_READ = 13, MC_IOIM_WRITE = 14,
    MC_IOIM_IO = 15, MC_IOIM = 16, MC_IOIM_IOCOM = 17, MC_TSKIM = 18,
    MC_PORT = 21, MC_SFP = 22, MC_PHY = 25, MC_FRU = 34,
    MC_UNUSED_FIRST = 0x40,     /* from here on no class exists */
};

/* IOC class */
enum { IOC_ENABLE = 1, IOC_DISABLE = 2, IOC_GETATTR = 3 };

/* attribute block returned by GETATTR */
#define ATTR_SIZE           752
#define ATTR_MFG_PWWN       0x000
#define ATTR_MFG_NWWN       0x008
#define ATTR_MFG_MAC        0x010
#define ATTR_PORT_MODE      0x016
#define ATTR_PWWN           0x018
#define ATTR_NWWN           0x020
#define ATTR_MAC            0x028
#define ATTR_SERIAL         0x038
#define ATTR_PCIE_GEN       0x044
#define ATTR_PCIE_LANES0    0x045
#define ATTR_PCIE_LANES     0x046
#define ATTR_BB_CREDIT      0x047
#define ATTR_PROPS          0x048
#define ATTR_MAX_FRAME      0x04c
#define ATTR_ASIC_REV       0x04e
#define ATTR_FW_VERSION     0x050
#define ATTR_ROM_VERSION    0x090
#define ATTR_CARD_TYPE      0x2d8
#define ATTR_MFG_DAY        0x2dc
#define ATTR_MFG_MONTH      0x2dd
#define ATTR_MFG_YEAR       0x2de

/* IOCFC class */
enum { IOCFC_CFG = 1, IOCFC_SET_INTR = 2, IOCFC_UPDATEQ = 3 };

/* configuration block the host points the CFG request at */
#define CI_NUM_QUEUES       0
#define CI_SENSE_LEN        1
#define CI_ENDIAN           4
#define CI_NUM_IOS          12
#define CI_REQ_BASE         16          /* 4 addresses */
#define CI_REQ_SHADOW       48          /* 4 addresses */
#define CI_REQ_DEPTH        80          /* 4 be16 */
#define CI_RSP_BASE         88
#define CI_RSP_SHADOW       120
#define CI_RSP_DEPTH        152
#define CI_STATS            160
#define CI_CFGRSP           168
#define CI_SENSE_BASE       176         /* 4 addresses of 128 KiB each */
#define CI_SIZE             216
#define CI_ENDIAN_LE        0x12345678u

#define SENSE_SEGS          4
#define SENSE_SLOT          256
#define SENSE_PER_SEG       (131072 / SENSE_SLOT)

/* configuration response the firmware writes back */
#define CR_NUM_RPORTS       4
#define CR_NUM_IOS          6
#define CR_NUM_TSKS         8
#define CR_NUM_FWTIO        10
#define CR_NUM_FCXPS        12
#define CR_NUM_UFS          14
#define CR_NUM_QUEUES       16
#define CR_TICK             17
#define CR_INTR_LATENCY     28
#define CR_INTR_DELAY       30
#define CR_PBC_PWWN         80
#define CR_PBC_NWWN         88
#define CR_REQ_CI           480         /* 4 be32 register offsets each */
#define CR_REQ_PI           496
#define CR_REQ_CTL          512
#define CR_RSP_CI           528
#define CR_RSP_PI           544
#define CR_RSP_CTL          560
#define CR_HW_QID           576
#define CR_SIZE             580

/* FLASH class: the partitions of the card's serial flash */
enum { FL_QUERY = 1, FL_ERASE = 2, FL_WRITE = 3, FL_READ = 4, FL_BOOTVER = 5 };
#define FL_BUF_MAX          0x10000
#define FL_PART_ENTRY       32
#define ST_OK               0
#define ST_FAILED           1
#define ST_ETIMER           5
#define ST_BAD_LEN          17
#define ST_UNSUPP           192         /* feature not supported */

/* type, instance, size of each partition a card leaves the factory with */
static const struct {
    uint32_t type, instance, size;
} flash_layout[] = {
    { 1, 0, 0x20000 },      /* option ROM */
    { 3, 0, 0x1000 },       /* firmware tunables */
    { 4, 0, 0x1000 },       /* driver configuration, port 0 */
    { 4, 1, 0x1000 },       /* driver configuration, port 1 */
    { 5, 0, 0x1000 },       /* boot configuration */
    { 10, 0, 0x1000 },      /* pre-boot configuration */
};
#define FLASH_PARTS ARRAY_SIZE(flash_layout)

/* what this firmware can hold at once */
#define FW_MAX_IOS          2000
#define FW_MAX_TSKS         128
#define FW_MAX_FCXPS        64
#define FW_MAX_UFS          64
#define FW_MAX_RPORTS       256

#define FW_VERSION          "3.2.5.1"
#define CARD_TYPE           825
#define MAX_FRAME           2112
#define BB_CREDIT           16

/* ---- helpers ----------------------------------------------------------- */

static inline uint32_t *reg(BcbState *s, hwaddr addr)
{
    return &s->regs[addr >> 2];
}

static uint64_t msg_addr(const uint8_t *m, unsigned off)
{
    /* 64-bit bus address, as two big-endian words, low word first */
    return (uint32_t)ldl_be_p(m + off) |
           (uint64_t)(uint32_t)ldl_be_p(m + off + 4) << 32;
}

/* The PCI function of port fn: function 1 only if it was plugged in. */
static PCIDevice *fn_dev(BcbState *s, int fn)
{
    return fn && s->fn1 ? s->fn1 : PCI_DEVICE(s);
}

static bool guest_read(BcbState *s, int fn, uint64_t addr, void *buf,
                       size_t len, const char *what)
{
    if (!addr || pci_dma_read(fn_dev(s, fn), addr, buf, len) !=
        MEMTX_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: cannot read %s (%zu bytes at 0x%"
                      PRIx64 ")\n", TYPE_BROCADE_CB, what, len, addr);
        return false;
    }
    return true;
}

static bool guest_write(BcbState *s, int fn, uint64_t addr, const void *buf,
                        size_t len, const char *what)
{
    if (!addr || pci_dma_write(fn_dev(s, fn), addr, buf, len) !=
        MEMTX_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: cannot write %s (%zu bytes at 0x%"
                      PRIx64 ")\n", TYPE_BROCADE_CB, what, len, addr);
        return false;
    }
    return true;
}

/* ---- interrupts -------------------------------------------------------- */

static void bcb_irq_update(BcbState *s, int fn)
{
    PCIDevice *pci = fn_dev(s, fn);
    BcbPort *p = &s->port[fn];
    uint32_t active = *reg(s, R_CAUSE(fn)) & ~*reg(s, R_MASK(fn)) &
                      CAUSES_OF(fn);

    if (fn && !s->fn1) {
        /* a one-function card: port 1's causes go nowhere */
        p->active = active;
        return;
    }
    if (msix_enabled(pci)) {
        uint32_t rise = active & ~p->active;

        while (rise) {
            int bit = ctz32(rise);

            rise &= rise - 1;
            if (bit < MSIX_ENTRIES) {
                msix_notify(pci, bit);
            }
        }
        pci_set_irq(pci, 0);
    } else {
        pci_set_irq(pci, active != 0);
    }
    p->active = active;
}

static void bcb_raise(BcbState *s, int fn, uint32_t causes)
{
    *reg(s, R_CAUSE(fn)) |= causes;
    bcb_irq_update(s, fn);
}

/* ---- mailbox ----------------------------------------------------------- */

/* Show the next queued message to the host if the registers are free. */
static void mbox_deliver(BcbState *s, int fn)
{
    BcbPort *p = &s->port[fn];
    const uint8_t *m;
    int i;

    if (!p->mbox_count || (*reg(s, R_MBSTAT(fn)) & 1)) {
        return;
    }
    m = p->mbox_out[p->mbox_head];
    for (i = 0; i < BCB_MBOX_BYTES / 4; i++) {
        *reg(s, R_MBOUT(fn) + 4 * i) = ldl_be_p(m + 4 * i);
    }
    p->mbox_head = (p->mbox_head + 1) % BCB_MBOX_DEPTH;
    p->mbox_count--;
    *reg(s, R_MBSTAT(fn)) |= 1;
    bcb_raise(s, fn, CAUSE_MBOX(fn));
}

static void mbox_post(BcbState *s, int fn, const uint8_t *msg, size_t len)
{
    BcbPort *p = &s->port[fn];
    uint8_t *slot;

    if (p->mbox_count == BCB_MBOX_DEPTH) {
        /* the host stopped taking messages; real firmware would stall */
        qemu_log_mask(LOG_GUEST_ERROR, "%s: mailbox to host full, message "
                      "%u/%u dropped\n", TYPE_BROCADE_CB, msg[M_CLASS],
                      msg[M_ID]);
        return;
    }
    slot = p->mbox_out[(p->mbox_head + p->mbox_count) % BCB_MBOX_DEPTH];
    memset(slot, 0, BCB_MBOX_BYTES);
    memcpy(slot, msg, MIN(len, BCB_MBOX_BYTES));
    p->mbox_count++;
    qemu_bh_schedule(s->work);
}

static void unsupported(const char *service, const uint8_t *req)
{
    qemu_log_mask(LOG_UNIMP, "%s: %s message %u not supported\n",
                  TYPE_BROCADE_CB, service, req[M_ID]);
}

static void msg_header(uint8_t *m, const uint8_t *req, uint8_t id)
{
    m[M_CLASS] = req[M_CLASS];
    m[M_ID] = id;
    m[M_TOKEN] = req[M_TOKEN];
    m[M_DEST] = req[M_DEST];
}

/* ---- rings in host memory ---------------------------------------------- */

static void bcb_fw_msg(BcbState *s, int fn, const uint8_t *m, int q);
static void io_forget_all(BcbPort *p);

static bool ring_full(const BcbRing *r)
{
    return (r->pi + 1) % r->depth == r->ci;
}

static void rsp_shadow(BcbState *s, int fn, BcbRing *r)
{
    uint8_t v[4];

    stl_le_p(v, r->pi);
    guest_write(s, fn, r->shadow, v, 4, "response producer index");
}

static void msg_init(uint8_t *m, uint8_t class, uint8_t id, int fn)
{
    memset(m, 0, BCB_ELEM);
    m[M_CLASS] = class;
    m[M_ID] = id;
    m[M_DEST] = fn << 1 | fn;
}

/*
 * Hostile mode: an element that names nothing the host has asked for, put
 * on a response ring ahead of a real answer.  I/O answers (good, and full
 * with status, sense length and residual) carry a tag no driver can have
 * issued: its low 11 bits, all a tag's index may use, are FW_MAX_IOS or
 * more (the most I/Os the firmware takes), the bits above random; or the
 * element is of a message class the firmware does not have.  A driver
 * that checks what it reads drops it and loses nothing.
 */
static bool fuzz_element(BcbState *s, uint8_t *m, int fn)
{
    GRand *r = s->fuzz_rand;
    uint16_t tag = g_rand_int_range(r, FW_MAX_IOS, IO_TAG_MASK + 1) |
                   g_rand_int_range(r, 0, 32) << 11;
    int k;

    if (s->port[fn].io[tag & IO_TAG_MASK]) {
        return false;       /* a host that uses more tags than it may */
    }
    switch (g_rand_int_range(r, 0, 3)) {
    case 0:
        msg_init(m, MC_IOIM_IOCOM, REPLY(1), fn);
        stw_be_p(m + 4, tag);
        break;
    case 1:
        msg_init(m, MC_IOIM, REPLY(1), fn);
        for (k = 4; k < BCB_ELEM; k += 4) {
            stl_le_p(m + k, g_rand_int(r));
        }
        stw_be_p(m + 4, tag);
        m[12] = CHECK_CONDITION;
        m[13] = 0xff;
        break;
    default:
        msg_init(m, g_rand_int_range(r, MC_UNUSED_FIRST, 0x100),
                 g_rand_int_range(r, 0, 0x100), fn);
        for (k = 4; k < BCB_ELEM; k += 4) {
            stl_le_p(m + k, g_rand_int(r));
        }
        break;
    }
    return true;
}

/* Put one message on a response ring, or keep it until there is room. */
static void bcb_respond(BcbState *s, int fn, int q, const uint8_t *msg)
{
    BcbPort *p = &s->port[fn];
    BcbRing *r;

    /* an answer to a mailbox message that belongs on a ring: ring 0 */
    q = MAX(q, 0);
    r = &p->rsp[q];
    if (!p->configured || q >= p->nq) {
        return;
    }
    if (ring_full(r) || !QSIMPLEQ_EMPTY(&p->backlog[q])) {
        BcbPending *e;

        if (p->backlog_len[q] >= BCB_BACKLOG_MAX) {
            /* a host that never takes its answers loses them */
            qemu_log_mask(LOG_GUEST_ERROR, "%s: response queue %d stuck, "
                          "answer %u/%u dropped\n", TYPE_BROCADE_CB, q,
                          msg[M_CLASS], msg[M_ID]);
            return;
        }
        e = g_new(BcbPending, 1);
        memcpy(e->msg, msg, BCB_ELEM);
        QSIMPLEQ_INSERT_TAIL(&p->backlog[q], e, next);
        p->backlog_len[q]++;
        return;
    }
    if (s->fuzz_left && (r->pi + 2) % r->depth != r->ci) {
        uint8_t bad[BCB_ELEM];

        if (!s->fuzz_rand) {
            s->fuzz_rand = g_rand_new_with_seed(s->fuzz_seed);
        }
        if (fuzz_element(s, bad, fn) &&
            guest_write(s, fn, r->base + (uint64_t)r->pi * BCB_ELEM, bad,
                        BCB_ELEM, "response element")) {
            r->pi = (r->pi + 1) % r->depth;
            s->fuzz_left--;
        }
    }
    if (!guest_write(s, fn, r->base + (uint64_t)r->pi * BCB_ELEM, msg, BCB_ELEM,
                     "response element")) {
        return;
    }
    r->pi = (r->pi + 1) % r->depth;
    rsp_shadow(s, fn, r);
    bcb_raise(s, fn, CAUSE_RSP(fn, q));
}

static void rsp_drain_backlog(BcbState *s, int fn, int q)
{
    BcbPort *p = &s->port[fn];
    BcbRing *r = &p->rsp[q];
    bool moved = false;

    while (!QSIMPLEQ_EMPTY(&p->backlog[q]) && !ring_full(r)) {
        BcbPending *e = QSIMPLEQ_FIRST(&p->backlog[q]);

        QSIMPLEQ_REMOVE_HEAD(&p->backlog[q], next);
        p->backlog_len[q]--;
        if (guest_write(s, fn, r->base + (uint64_t)r->pi * BCB_ELEM, e->msg,
                        BCB_ELEM, "response element")) {
            r->pi = (r->pi + 1) % r->depth;
        }
        g_free(e);
        moved = true;
    }
    if (moved) {
        rsp_shadow(s, fn, r);
    }
    if (r->pi != r->ci) {
        bcb_raise(s, fn, CAUSE_RSP(fn, q));
    }
}

static void port_forget(BcbState *s, BcbPort *p)
{
    if (p->link_up) {
        bcb_fabric_link_lost(s, p->fn);
    }
    p->port_enabled = false;
    p->admin_down = false;
    p->link_up = false;
    memset(p->lps, 0, sizeof(p->lps));
    memset(p->lps_wwpn, 0, sizeof(p->lps_wwpn));
    p->uf_head = p->uf_count = 0;
    memset(p->rport, 0, sizeof(p->rport));
}

/*
 * A reset of SCOPE reached target T, LUN L (-1: all of them): the hung
 * LUN answers again if the scope covers it and is as wide as the fault
 * asks for.
 */
static void hang_reset(BcbState *s, int scope, int t, int lun)
{
    int64_t f = s->fault_lun;

    if (!s->io_hang || scope < s->io_hang) {
        return;
    }
    if (f < 0 || t < 0 ||
        ((f >> 16) == t && (scope >= BCB_HANG_TARGET || (f & 0xffff) == lun))) {
        s->io_hang = 0;
    }
}

static void rings_forget(BcbState *s, BcbPort *p)
{
    int q;

    for (q = 0; q < BCB_NQ; q++) {
        while (!QSIMPLEQ_EMPTY(&p->backlog[q])) {
            BcbPending *e = QSIMPLEQ_FIRST(&p->backlog[q]);

            QSIMPLEQ_REMOVE_HEAD(&p->backlog[q], next);
            g_free(e);
        }
        p->backlog_len[q] = 0;
        memset(&p->req[q], 0, sizeof(p->req[q]));
        memset(&p->rsp[q], 0, sizeof(p->rsp[q]));
    }
    p->gen++;
    port_forget(s, p);
    io_forget_all(p);
    hang_reset(s, BCB_HANG_IOC, -1, -1);
}

/* ---- IOC: firmware life cycle ------------------------------------------ */

static void fwstate_set(BcbState *s, int port, uint32_t state)
{
    uint32_t *r = reg(s, R_FWSTATE(port));

    *r = (*r & ~FWST_STATE) | state;
}

/*
 * The image the driver downloaded must be whole: its header names its
 * length and the checksum of everything after the header.
 */
static bool bcb_image_ok(BcbState *s)
{
    const uint8_t *img = s->smem;
    uint32_t len = ldl_le_p(img + IMG_LENGTH);
    uint32_t crc;

    if (ldl_le_p(img) != IMG_SIGNATURE) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: no firmware signature in shared "
                      "memory\n", TYPE_BROCADE_CB);
        return false;
    }
    if (img[IMG_DEVMODE] != 1 || img[IMG_DEVMODE + 1] != 1) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: firmware started for ASIC %u "
                      "mode %u, this is a Crossbow in FC mode\n",
                      TYPE_BROCADE_CB, img[IMG_DEVMODE], img[IMG_DEVMODE + 1]);
        return false;
    }
    if (len < IMG_BODY || len > BCB_SMEM_SIZE) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: firmware length %u out of range\n",
                      TYPE_BROCADE_CB, len);
        return false;
    }
    crc = crc32(0, img + IMG_BODY, len - IMG_BODY);
    if (crc != ldl_le_p(img + IMG_CRC)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: firmware body checksum 0x%08x, "
                      "header promises 0x%08x: incomplete download\n",
                      TYPE_BROCADE_CB, crc, ldl_le_p(img + IMG_CRC));
        return false;
    }
    return true;
}

static void bcb_port_stop(BcbState *s, int port)
{
    BcbPort *p = &s->port[port];

    p->running = false;
    p->enabled = false;
    p->configured = false;
    p->mbox_count = 0;
    rings_forget(s, p);
}

/* The driver released the processor from reset: boot the firmware. */
static void bcb_fw_start(BcbState *s)
{
    int port;

    if (!bcb_image_ok(s)) {
        /* a real card would hang in its boot ROM; the driver times out */
        return;
    }
    for (port = 0; port < 2; port++) {
        bcb_port_stop(s, port);
        /* a reboot clears a hung firmware */
        s->port[port].hb_stall = false;
        s->port[port].running = true;
        fwstate_set(s, port, FWST_DISABLED);
    }
    timer_mod(s->beat, qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) + 100);
}

static void bcb_fw_halt(BcbState *s)
{
    bcb_port_stop(s, 0);
    bcb_port_stop(s, 1);
    timer_del(s->beat);
}

static void bcb_heartbeat(void *opaque)
{
    BcbState *s = opaque;
    int port;

    for (port = 0; port < 2; port++) {
        if (s->port[port].running && !s->port[port].hb_stall) {
            (*reg(s, R_HEARTBEAT(port)))++;
        }
    }
    timer_mod(s->beat, qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) + 100);
}

static void put_wwn(uint8_t *p, uint64_t wwn)
{
    stq_be_p(p, wwn);
}

static void bcb_getattr(BcbState *s, int port, const uint8_t *req,
                        uint8_t *rsp)
{
    uint8_t a[ATTR_SIZE] = { 0 };
    uint64_t wwpn = s->wwpn + port;
    uint64_t wwnn = s->wwnn;
    bool written;

    put_wwn(a + ATTR_MFG_PWWN, wwpn);
    put_wwn(a + ATTR_MFG_NWWN, wwnn);
    put_wwn(a + ATTR_PWWN, wwpn);
    put_wwn(a + ATTR_NWWN, wwnn);
    /* a locally administered MAC derived from the port name */
    stl_be_p(a + ATTR_MFG_MAC, 0x02000000 | (uint32_t)(wwpn >> 8));
    a[ATTR_MFG_MAC + 4] = wwpn >> 8;
    a[ATTR_MFG_MAC + 5] = wwpn;
    memcpy(a + ATTR_MAC, a + ATTR_MFG_MAC, 6);
    a[ATTR_PORT_MODE] = 1;                      /* FC */
    pstrcpy((char *)a + ATTR_SERIAL, 12, s->serial);
    a[ATTR_PCIE_GEN] = 2;
    a[ATTR_PCIE_LANES0] = 8;
    a[ATTR_PCIE_LANES] = 8;
    a[ATTR_BB_CREDIT] = BB_CREDIT;
    /* FC adapter, two ports, 8 Gbit/s */
    stl_be_p(a + ATTR_PROPS, 1u << 16 | 2u << 8 | 8);
    stw_be_p(a + ATTR_MAX_FRAME, MAX_FRAME);
    a[ATTR_ASIC_REV] = 'C';
    pstrcpy((char *)a + ATTR_FW_VERSION, 64, FW_VERSION);
    pstrcpy((char *)a + ATTR_ROM_VERSION, 64, FW_VERSION);
    stl_be_p(a + ATTR_CARD_TYPE, CARD_TYPE);
    a[ATTR_MFG_DAY] = 1;
    a[ATTR_MFG_MONTH] = 1;
    stw_be_p(a + ATTR_MFG_YEAR, 2010);

    written = guest_write(s, port, msg_addr(req, 4), a, sizeof(a),
                          "IOC attributes");
    rsp[4] = written ? ST_OK : ST_FAILED;
}

static void bcb_ioc_msg(BcbState *s, int port, const uint8_t *req, int q)
{
    uint8_t rsp[BCB_MBOX_BYTES] = { 0 };

    msg_header(rsp, req, REPLY(req[M_ID]));
    switch (req[M_ID]) {
    case IOC_ENABLE:
        s->port[port].enabled = true;
        fwstate_set(s, port, FWST_OP);
        rsp[5] = 1;             /* port mode: HBA */
        rsp[6] = 1;             /* capabilities: HBA */
        break;
    case IOC_DISABLE:
        s->port[port].enabled = false;
        s->port[port].configured = false;
        rings_forget(s, &s->port[port]);
        fwstate_set(s, port, FWST_DISABLED);
        break;
    case IOC_GETATTR:
        bcb_getattr(s, port, req, rsp);
        break;
    default:
        unsupported("IOC", req);
        return;
    }
    mbox_post(s, port, rsp, 8);
}

/* ---- FLASH: partitions kept for the life of the device ----------------- */

static int flash_part(BcbState *s, uint32_t type, uint32_t instance)
{
    int i;

    for (i = 0; i < FLASH_PARTS; i++) {
        if (flash_layout[i].type == type &&
            flash_layout[i].instance == instance) {
            return i;
        }
    }
    return -1;
}

static uint32_t flash_query(BcbState *s, int fn, const uint8_t *req)
{
    uint32_t len = ldl_be_p(req + 12);
    g_autofree uint8_t *a = g_malloc0(8 + FL_PART_ENTRY * FLASH_PARTS);
    uint32_t off = 0;
    int i;

    stl_be_p(a + 4, FLASH_PARTS);
    for (i = 0; i < FLASH_PARTS; i++) {
        uint8_t *e = a + 8 + FL_PART_ENTRY * i;

        stl_be_p(e, flash_layout[i].type);
        stl_be_p(e + 4, flash_layout[i].instance);
        stl_be_p(e + 8, off);
        stl_be_p(e + 12, flash_layout[i].size);
        stl_be_p(e + 16, flash_layout[i].size);
        off += flash_layout[i].size;
    }
    len = MIN(len, 8 + FL_PART_ENTRY * FLASH_PARTS);
    return guest_write(s, fn, msg_addr(req, 4), a, len, "flash attributes")
           ? ST_OK : ST_FAILED;
}

/*
 * Read, write or erase within a partition.  A write names the host buffer
 * first, then partition, offset and length; a read the other way round.
 */
static uint32_t flash_rw(BcbState *s, int fn, const uint8_t *req,
                         uint32_t *done)
{
    bool wr = req[M_ID] == FL_WRITE;
    unsigned at = wr ? 16 : 4;                      /* type, instance */
    uint32_t type = ldl_be_p(req + at);
    uint32_t inst = req[at + 4];
    uint32_t off = ldl_be_p(req + at + 8);
    uint32_t len = ldl_be_p(req + at + 12);
    uint64_t buf = msg_addr(req, wr ? 4 : 20);
    int i = flash_part(s, type, inst);

    *done = 0;
    if (i < 0) {
        return ST_UNSUPP;
    }
    if (req[M_ID] == FL_ERASE) {
        memset(s->flash[i], 0xff, flash_layout[i].size);
        return ST_OK;
    }
    if (len > FL_BUF_MAX || off > flash_layout[i].size ||
        len > flash_layout[i].size - off) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: flash %s of %u bytes at %u "
                      "outside partition %u/%u\n", TYPE_BROCADE_CB,
                      wr ? "write" : "read", len, off, type, inst);
        return ST_BAD_LEN;
    }
    if (wr ? !guest_read(s, fn, buf, s->flash[i] + off, len, "flash data")
           : !guest_write(s, fn, buf, s->flash[i] + off, len, "flash data")) {
        return ST_FAILED;
    }
    *done = len;
    return ST_OK;
}

static void bcb_flash_msg(BcbState *s, int fn, const uint8_t *req, int q)
{
    uint8_t rsp[BCB_MBOX_BYTES] = { 0 };
    uint32_t status, len = 0;

    msg_header(rsp, req, REPLY(req[M_ID]));
    switch (req[M_ID]) {
    case FL_QUERY:
        stl_be_p(rsp + 4, flash_query(s, fn, req));
        break;
    case FL_READ:
    case FL_WRITE:
    case FL_ERASE:
        status = flash_rw(s, fn, req, &len);
        /* the reply names the partition, then status and length */
        memcpy(rsp + 4, req + (req[M_ID] == FL_WRITE ? 16 : 4), 5);
        stl_be_p(rsp + 12, status);
        stl_be_p(rsp + 16, len);
        break;
    default:
        stl_be_p(rsp + 4, ST_UNSUPP);
        break;
    }
    mbox_post(s, fn, rsp, BCB_MBOX_BYTES);
}

/* ---- IOCFC: queue configuration ---------------------------------------- */

static bool ring_setup(BcbState *s, BcbRing *r, const uint8_t *ci,
                       unsigned base, unsigned shadow, unsigned depth,
                       const char *what)
{
    r->base = msg_addr(ci, base);
    r->shadow = msg_addr(ci, shadow);
    r->depth = lduw_be_p(ci + depth);
    r->pi = r->ci = 0;
    if (!r->base || !r->shadow || r->depth < 2 || r->depth > 4096 ||
        (r->depth & (r->depth - 1))) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s ring at 0x%" PRIx64 " with %u "
                      "elements refused\n", TYPE_BROCADE_CB, what, r->base,
                      r->depth);
        return false;
    }
    return true;
}

static bool bcb_configure(BcbState *s, int fn, uint64_t addr)
{
    BcbPort *p = &s->port[fn];
    uint8_t ci[CI_SIZE], cr[CR_SIZE] = { 0 };
    unsigned nq, q, hq;

    rings_forget(s, p);
    p->configured = false;
    if (!guest_read(s, fn, addr, ci, sizeof(ci), "IOCFC configuration")) {
        return false;
    }
    if (ldl_le_p(ci + CI_ENDIAN) != CI_ENDIAN_LE) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: host endian signature 0x%08x "
                      "not understood\n", TYPE_BROCADE_CB,
                      ldl_le_p(ci + CI_ENDIAN));
        return false;
    }
    nq = ci[CI_NUM_QUEUES];
    if (nq < 1 || nq > BCB_NQ) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %u queue pairs asked for, 1..%d "
                      "supported\n", TYPE_BROCADE_CB, nq, BCB_NQ);
        return false;
    }
    for (q = 0; q < nq; q++) {
        if (!ring_setup(s, &p->req[q], ci, CI_REQ_BASE + 8 * q,
                        CI_REQ_SHADOW + 8 * q, CI_REQ_DEPTH + 2 * q,
                        "request") ||
            !ring_setup(s, &p->rsp[q], ci, CI_RSP_BASE + 8 * q,
                        CI_RSP_SHADOW + 8 * q, CI_RSP_DEPTH + 2 * q,
                        "response")) {
            rings_forget(s, p);
            return false;
        }
    }
    for (q = 0; q < SENSE_SEGS; q++) {
        p->sense_base[q] = msg_addr(ci, CI_SENSE_BASE + 8 * q);
    }
    p->nq = nq;
    p->max_ios = MIN(lduw_be_p(ci + CI_NUM_IOS), FW_MAX_IOS);

    stw_be_p(cr + CR_NUM_RPORTS, FW_MAX_RPORTS);
    stw_be_p(cr + CR_NUM_IOS, p->max_ios);
    stw_be_p(cr + CR_NUM_TSKS, FW_MAX_TSKS);
    stw_be_p(cr + CR_NUM_FCXPS, FW_MAX_FCXPS);
    stw_be_p(cr + CR_NUM_UFS, FW_MAX_UFS);
    cr[CR_NUM_QUEUES] = nq;
    cr[CR_TICK] = 100;
    stw_be_p(cr + CR_INTR_LATENCY, 20);
    stw_be_p(cr + CR_INTR_DELAY, 100);
    /* the port names this card was set up with before the OS booted */
    put_wwn(cr + CR_PBC_PWWN, s->wwpn + fn);
    put_wwn(cr + CR_PBC_NWWN, s->wwnn);
    for (q = 0; q < BCB_NQ; q++) {
        hq = 4 * fn + q;
        stl_be_p(cr + CR_REQ_CI + 4 * q, R_REQ_CI(hq));
        stl_be_p(cr + CR_REQ_PI + 4 * q, R_REQ_PI(hq));
        stl_be_p(cr + CR_REQ_CTL + 4 * q, R_REQ_CTL(hq));
        stl_be_p(cr + CR_RSP_CI + 4 * q, R_RSP_CI(hq));
        stl_be_p(cr + CR_RSP_PI + 4 * q, R_RSP_PI(hq));
        stl_be_p(cr + CR_RSP_CTL + 4 * q, R_RSP_CTL(hq));
        cr[CR_HW_QID + q] = hq;
    }
    if (!guest_write(s, fn, msg_addr(ci, CI_CFGRSP), cr, sizeof(cr),
                     "IOCFC configuration response")) {
        rings_forget(s, p);
        return false;
    }
    p->configured = true;
    return true;
}

static void bcb_iocfc_msg(BcbState *s, int fn, const uint8_t *req, int q)
{
    uint8_t rsp[BCB_MBOX_BYTES] = { 0 };

    switch (req[M_ID]) {
    case IOCFC_CFG:
        msg_header(rsp, req, REPLY(IOCFC_CFG));
        rsp[4] = bcb_configure(s, fn, msg_addr(req, 4));
        rsp[5] = 1u << fn;              /* the processor serving the port */
        mbox_post(s, fn, rsp, 8);
        break;
    case IOCFC_SET_INTR:
        /* coalescing is a matter of timing only; nothing to answer */
        break;
    default:
        unsupported("IOCFC", req);
        break;
    }
}

/* The host produced request elements on ring q up to pi. */
static void bcb_req_ring(BcbState *s, int fn, int q, uint32_t pi)
{
    BcbPort *p = &s->port[fn];
    BcbRing *r = &p->req[q];
    uint8_t m[BCB_ELEM], v[4];
    bool was_full;

    if (!p->configured || q >= p->nq) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: request queue %d rung while not "
                      "configured\n", TYPE_BROCADE_CB, q);
        return;
    }
    if (pi >= r->depth) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: request queue %d producer index "
                      "%u beyond its %u elements\n", TYPE_BROCADE_CB, q, pi,
                      r->depth);
        return;
    }
    r->pi = pi;
    was_full = ring_full(r);
    while (r->ci != r->pi && p->configured) {
        if (!guest_read(s, fn, r->base + (uint64_t)r->ci * BCB_ELEM, m,
                        BCB_ELEM, "request element")) {
            break;
        }
        r->ci = (r->ci + 1) % r->depth;
        bcb_fw_msg(s, fn, m, q);
    }
    stl_le_p(v, r->ci);
    guest_write(s, fn, r->shadow, v, 4, "request consumer index");
    if (was_full) {
        bcb_raise(s, fn, CAUSE_REQ(fn, q));
    }
}

static void bcb_rsp_ci(BcbState *s, int fn, int q, uint32_t ci)
{
    BcbPort *p = &s->port[fn];
    BcbRing *r = &p->rsp[q];

    if (!p->configured || q >= p->nq || ci >= r->depth) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: response queue %d consumer index "
                      "%u refused\n", TYPE_BROCADE_CB, q, ci);
        return;
    }
    r->ci = ci;
    rsp_drain_backlog(s, fn, q);
}

/* ---- FC port ----------------------------------------------------------- */

enum { FCPORT_ENABLE = 1, FCPORT_DISABLE = 2, FCPORT_SVC_PARAMS = 3,
       FCPORT_STATS_GET = 4, FCPORT_STATS_CLEAR = 5, FCPORT_EVENT = 6 };
#define FCPORT_STATS_SIZE   360         /* the larger (FCoE) layout */
#define PORT_CFG_SIZE       24
#define LINK_UP             1
#define LINK_DOWN           2
#define TOPO_P2P            5
#define SPEED_8G            8

/* Tell the host the state of its link. */
static void fcport_event(BcbState *s, int fn)
{
    BcbPort *p = &s->port[fn];
    uint8_t m[BCB_ELEM];

    msg_init(m, MC_FCPORT, REPLY(FCPORT_EVENT), fn);
    m[4] = p->link_up ? LINK_UP : LINK_DOWN;
    m[6] = p->link_up ? TOPO_P2P : 0;
    m[7] = p->link_up ? SPEED_8G : 0;
    bcb_respond(s, fn, 0, m);
}

/* The light on the wire: follows the port's enable and the fault knob. */
static void fcport_link_update(BcbState *s, int fn)
{
    BcbPort *p = &s->port[fn];
    /* point to point, only port 0 is cabled (to the one target) */
    bool up = p->configured && p->port_enabled && !p->admin_down &&
              !s->link_down && !(s->p2p && fn);

    if (up == p->link_up) {
        return;
    }
    p->link_up = up;
    if (!up) {
        bcb_fabric_link_lost(s, fn);
        memset(p->lps, 0, sizeof(p->lps));
    }
    if (p->configured) {
        fcport_event(s, fn);
    }
}

static void link_timer(void *opaque)
{
    BcbState *s = opaque;

    fcport_link_update(s, 0);
    fcport_link_update(s, 1);
}

static void bcb_fcport_msg(BcbState *s, int fn, const uint8_t *req, int q)
{
    BcbPort *p = &s->port[fn];
    uint8_t m[BCB_ELEM];

    msg_init(m, MC_FCPORT, REPLY(req[M_ID]), fn);
    switch (req[M_ID]) {
    case FCPORT_ENABLE:
        /* status, the port configuration in use, the host's tag */
        memcpy(m + 8, req + 24, PORT_CFG_SIZE);
        memcpy(m + 32, req + 56, 4);
        p->stats_addr = msg_addr(req, 48);
        p->port_enabled = true;
        bcb_respond(s, fn, q, m);
        /* light comes up after the speed negotiation */
        timer_mod(s->link, qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) + 20);
        return;
    case FCPORT_DISABLE:
        memcpy(m + 32, req + 4, 4);
        p->port_enabled = false;
        bcb_respond(s, fn, q, m);
        fcport_link_update(s, fn);
        return;
    case FCPORT_SVC_PARAMS:
        bcb_respond(s, fn, q, m);
        return;
    case FCPORT_STATS_GET: {
        /*
         * In FC mode these are the QoS counters; this fabric offers no
         * QoS, so they stay zero.  They are written all the same.
         */
        static const uint8_t zero[FCPORT_STATS_SIZE];

        m[4] = guest_write(s, fn, p->stats_addr, zero, sizeof(zero),
                           "FC port statistics") ? ST_OK : ST_FAILED;
        bcb_respond(s, fn, q, m);
        return;
    }
    case FCPORT_STATS_CLEAR:
        bcb_respond(s, fn, q, m);
        return;
    default:
        unsupported("FC port", req);
    }
}

/* ---- PORT: the physical port as the FC transport's sysfs drives it ---- */

enum {
    PORT_ENABLE = 1, PORT_DISABLE = 2, PORT_STATS = 3, PORT_STATS_CLEAR = 4,
};
#define PORT_STATS_SIZE     336

static void bcb_port_msg(BcbState *s, int fn, const uint8_t *req, int q)
{
    BcbPort *p = &s->port[fn];
    uint8_t rsp[BCB_MBOX_BYTES] = { 0 };
    uint8_t stats[PORT_STATS_SIZE] = { 0 };

    msg_header(rsp, req, REPLY(req[M_ID]));
    switch (req[M_ID]) {
    case PORT_ENABLE:
        p->admin_down = false;
        timer_mod(s->link, qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) + 20);
        break;
    case PORT_DISABLE:
        p->admin_down = true;
        fcport_link_update(s, fn);
        break;
    case PORT_STATS:
        /* seconds since reset, then counters: nothing goes wrong here */
        stq_be_p(stats, (qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) -
                         p->stats_reset) / 1000);
        rsp[4] = guest_write(s, fn, msg_addr(req, 4), stats, sizeof(stats),
                             "port statistics") ? ST_OK : ST_FAILED;
        break;
    case PORT_STATS_CLEAR:
        p->stats_reset = qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL);
        break;
    default:
        unsupported("port", req);
        rsp[4] = ST_FAILED;
        break;
    }
    mbox_post(s, fn, rsp, 12);
}

/* ---- login service: FLOGI and FDISC ------------------------------------ */

enum { LPS_LOGIN = 1, LPS_LOGOUT = 2, LPS_N2N_PID = 3 };
#define ST_FABRIC_RJT       29

/*
 * Point to point, the FLOGI goes to the one peer N_Port, whose accept is
 * not from an F_Port and assigns no address: the side with the higher port
 * name does that next (N2N_PID).
 */
static void bcb_lps_p2p(BcbState *s, int fn, const uint8_t *req, uint8_t *m)
{
    BcbPort *p = &s->port[fn];
    uint64_t wwpn, wwnn;
    uint8_t tag = req[4];

    if (req[24]) {
        m[5] = ST_FABRIC_RJT;           /* FDISC: there is no fabric */
        m[6] = 0x0b;
        return;
    }
    if (!bcb_fabric_p2p_peer(s, &wwpn, &wwnn)) {
        m[5] = ST_ETIMER;
        return;
    }
    p->lps[tag] = 0;
    p->lps_wwpn[tag] = ldq_be_p(req + 8);
    p->lps_wwnn[tag] = ldq_be_p(req + 16);
    m[4] = tag;
    put_wwn(m + 8, wwpn);
    put_wwn(m + 16, wwnn);
    stw_be_p(m + 24, BB_CREDIT);
}

static void bcb_lps_msg(BcbState *s, int fn, const uint8_t *req, int q)
{
    BcbPort *p = &s->port[fn];
    uint8_t m[BCB_ELEM];
    uint8_t tag = req[4], reason = 0;
    uint32_t pid;

    msg_init(m, MC_LPS, REPLY(req[M_ID]), fn);
    switch (req[M_ID]) {
    case LPS_LOGIN:
        m[46] = tag;
        if (tag >= BCB_MAX_LPS) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: login tag %u beyond %d\n",
                          TYPE_BROCADE_CB, tag, BCB_MAX_LPS);
            m[5] = ST_FAILED;
            break;
        }
        if (!p->link_up) {
            /* nothing answers on a dark wire */
            m[5] = ST_ETIMER;
            break;
        }
        if (s->p2p) {
            bcb_lps_p2p(s, fn, req, m);
            break;
        }
        pid = bcb_fabric_login(s, fn, req[24], ldq_be_p(req + 8),
                               ldq_be_p(req + 16), &reason);
        if (!pid) {
            m[5] = ST_FABRIC_RJT;
            m[6] = reason;
            break;
        }
        p->lps[tag] = pid;
        m[4] = tag;                         /* firmware's tag: the same */
        /* the F_Port's name, then the fabric's */
        put_wwn(m + 8, (bcb_fabric_name() & ~(0xfull << 60)) | 2ull << 60);
        put_wwn(m + 16, bcb_fabric_name());
        stw_be_p(m + 24, BB_CREDIT);
        m[26] = 1;                          /* logged in to an F_Port */
        m[27] = 1;                          /* NPIV offered */
        m[28] = pid >> 16;
        m[29] = pid >> 8;
        m[30] = pid;
        m[45] = 0;                          /* not a Brocade switch */
        break;
    case LPS_LOGOUT:
        m[4] = tag;
        if (tag < BCB_MAX_LPS && p->lps[tag]) {
            bcb_fabric_logout(s, p->lps[tag]);
            p->lps[tag] = 0;
        }
        break;
    case LPS_N2N_PID:
        tag = req[4];
        if (s->p2p && tag < BCB_MAX_LPS && p->lps_wwpn[tag]) {
            bcb_fabric_p2p_local(s, fn, req[5] << 16 | req[6] << 8 | req[7],
                                 p->lps_wwpn[tag], p->lps_wwnn[tag]);
        }
        return;
    default:
        unsupported("login", req);
        return;
    }
    bcb_respond(s, fn, q, m);
}

/* ---- unsolicited frames ------------------------------------------------ */

static void bcb_uf_msg(BcbState *s, int fn, const uint8_t *req, int q)
{
    BcbPort *p = &s->port[fn];
    BcbUfBuf *b;

    if (req[M_ID] != 1) {
        unsupported("UF", req);
        return;
    }
    if (p->uf_count == BCB_MAX_UF) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: more than %d receive buffers "
                      "posted\n", TYPE_BROCADE_CB, BCB_MAX_UF);
        return;
    }
    b = &p->uf[(p->uf_head + p->uf_count) % BCB_MAX_UF];
    memcpy(b->tag, req + 4, 2);
    b->len = MIN(lduw_be_p(req + 6), ldl_be_p(req + 16));
    b->addr = msg_addr(req, 8);
    p->uf_count++;
}

/* A frame from the fabric: into the next posted buffer, then tell the host. */
void bcb_port_receive(BcbState *s, int fn, const uint8_t *hdr,
                      const uint8_t *payload, size_t len)
{
    BcbPort *p;
    BcbUfBuf *b;
    uint8_t m[BCB_ELEM];
    g_autofree uint8_t *frame = NULL;

    if (fn < 0 || fn > 1) {
        return;
    }
    p = &s->port[fn];
    if (!p->link_up || !p->uf_count) {
        /* no buffer: the frame is dropped, as on the wire */
        return;
    }
    b = &p->uf[p->uf_head];
    if (BCB_FCHS + len > b->len) {
        return;
    }
    p->uf_head = (p->uf_head + 1) % BCB_MAX_UF;
    p->uf_count--;
    frame = g_malloc(BCB_FCHS + len);
    memcpy(frame, hdr, BCB_FCHS);
    memcpy(frame + BCB_FCHS, payload, len);
    if (!guest_write(s, fn, b->addr, frame, BCB_FCHS + len, "received frame")) {
        return;
    }
    msg_init(m, MC_UF, REPLY(1), fn);
    memcpy(m + 4, b->tag, 2);
    stw_be_p(m + 8, BCB_FCHS + len);
    stw_be_p(m + 10, BCB_FCHS + len);
    bcb_respond(s, fn, 0, m);
}

/* ---- FC exchange pass-through (ELS and CT) ----------------------------- */

#define FCXP_MAX_PAYLOAD    (64 * 1024)

/* Keep the delayed answers in the order they fall due. */
static void later_add(BcbState *s, BcbPending *e)
{
    BcbPending *x, *prev = NULL;

    QSIMPLEQ_FOREACH(x, &s->later, next) {
        if (x->due > e->due) {
            break;
        }
        prev = x;
    }
    if (prev) {
        QSIMPLEQ_INSERT_AFTER(&s->later, prev, e, next);
    } else {
        QSIMPLEQ_INSERT_HEAD(&s->later, e, next);
    }
    timer_mod(s->later_timer, QSIMPLEQ_FIRST(&s->later)->due);
}

static void bcb_fcxp_msg(BcbState *s, int fn, const uint8_t *req, int q)
{
    BcbPort *p = &s->port[fn];
    uint8_t m[BCB_ELEM], hdr[BCB_FCHS];
    uint32_t len = ldl_be_p(req + 40), max = ldl_be_p(req + 44);
    uint64_t req_buf = msg_addr(req, 48), rsp_buf = msg_addr(req, 60);
    g_autofree uint8_t *in = NULL;
    g_autofree uint8_t *out = NULL;
    size_t n = 0;

    if (req[M_ID] != 1) {
        unsupported("FCXP", req);
        return;
    }
    msg_init(m, MC_FCXP, REPLY(1), fn);
    memcpy(m + 4, req + 4, 2);                  /* the host's tag */
    memcpy(hdr, req + 16, BCB_FCHS);
    if (len > FCXP_MAX_PAYLOAD || len > ldl_be_p(req + 56) ||
        max > ldl_be_p(req + 68)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: exchange of %u bytes, answer up "
                      "to %u, does not fit its buffers\n", TYPE_BROCADE_CB,
                      len, max);
        m[6] = ST_FAILED;
        goto done;
    }
    /* zero past the end: parsers may look at a field a short frame lacks */
    in = g_malloc0(len + 256);
    out = g_malloc0(FCXP_MAX_PAYLOAD);
    if (!guest_read(s, fn, req_buf, in, len, "exchange payload")) {
        m[6] = ST_FAILED;
        goto done;
    }
    if (p->link_up && !s->els_drop) {
        n = bcb_fabric_exchange(s, hdr, in, len, out, FCXP_MAX_PAYLOAD);
    } else if (s->els_drop) {
        s->els_drop--;
    }
    if (!n || !req[13]) {
        /* no answer: the host's timer runs out; or none was wanted */
        m[6] = req[13] ? ST_ETIMER : ST_OK;
        goto done;
    }
    bcb_fabric_reply_header(hdr, m + 16);
    if (n > max) {
        stl_be_p(m + 12, n - max);
        n = max;
    }
    if (!guest_write(s, fn, rsp_buf, out, n, "exchange answer")) {
        m[6] = ST_FAILED;
        goto done;
    }
    stl_be_p(m + 8, n);
done:
    if (m[6] == ST_ETIMER) {
        /* the answer never comes; report the timeout when it would */
        BcbPending *e = g_new(BcbPending, 1);

        memcpy(e->msg, m, BCB_ELEM);
        e->fn = fn;
        e->q = q;
        e->gen = p->gen;
        e->due = qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) +
                 MAX(req[13], 1) * 1000;
        later_add(s, e);
        return;
    }
    bcb_respond(s, fn, q, m);
}

static void later_run(void *opaque)
{
    BcbState *s = opaque;
    int64_t now = qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL);

    while (!QSIMPLEQ_EMPTY(&s->later) &&
           QSIMPLEQ_FIRST(&s->later)->due <= now) {
        BcbPending *e = QSIMPLEQ_FIRST(&s->later);

        QSIMPLEQ_REMOVE_HEAD(&s->later, next);
        if (e->gen != s->port[e->fn].gen) {
            /* the rings were set up again: nobody waits for it */
        } else if (e->q < 0) {
            mbox_post(s, e->fn, e->msg, BCB_MBOX_BYTES);
        } else {
            bcb_respond(s, e->fn, e->q, e->msg);
        }
        g_free(e);
    }
    if (!QSIMPLEQ_EMPTY(&s->later)) {
        timer_mod(s->later_timer, QSIMPLEQ_FIRST(&s->later)->due);
    }
}

/* ---- remote ports and FCP nexus ---------------------------------------- */

enum { RPORT_CREATE = 1, RPORT_DELETE = 2, RPORT_SPEED = 3 };
enum { ITN_CREATE = 1, ITN_DELETE = 2 };

static BcbRport *rport_get(BcbState *s, int fn, const uint8_t *h)
{
    uint16_t i = lduw_le_p(h);

    if (i == 0 || i >= BCB_MAX_RPORTS || !s->port[fn].rport[i].used) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: no remote port with handle %u\n",
                      TYPE_BROCADE_CB, i);
        return NULL;
    }
    return &s->port[fn].rport[i];
}

static void bcb_rport_msg(BcbState *s, int fn, const uint8_t *req, int q)
{
    BcbPort *p = &s->port[fn];
    uint8_t m[BCB_ELEM];
    BcbRport *r;
    uint16_t i;

    msg_init(m, MC_RPORT, REPLY(req[M_ID]), fn);
    switch (req[M_ID]) {
    case RPORT_CREATE:
        for (i = 1; i < BCB_MAX_RPORTS && p->rport[i].used; i++) {
            continue;
        }
        memcpy(m + 8, req + 4, 2);
        if (i == BCB_MAX_RPORTS) {
            m[4] = ST_FAILED;
            break;
        }
        r = &p->rport[i];
        memset(r, 0, sizeof(*r));
        r->used = true;
        memcpy(r->host_handle, req + 4, 2);
        r->pid = req[8] << 16 | req[9] << 8 | req[10];
        r->local_pid = req[12] << 16 | req[13] << 8 | req[14];
        stw_le_p(m + 10, i);
        break;
    case RPORT_DELETE:
        r = rport_get(s, fn, req + 4);
        if (!r) {
            return;
        }
        memcpy(m + 4, r->host_handle, 2);
        memset(r, 0, sizeof(*r));
        break;
    case RPORT_SPEED:
        return;
    default:
        unsupported("rport", req);
        return;
    }
    bcb_respond(s, fn, q, m);
}

static void bcb_itn_msg(BcbState *s, int fn, const uint8_t *req, int q)
{
    uint8_t m[BCB_ELEM];
    BcbRport *r = rport_get(s, fn, req + 4);

    if (!r) {
        return;
    }
    msg_init(m, MC_ITN, REPLY(req[M_ID]), fn);
    memcpy(m + 4, r->host_handle, 2);
    switch (req[M_ID]) {
    case ITN_CREATE:
        r->itn = true;
        m[7] = req[8];                      /* the host's sequence */
        break;
    case ITN_DELETE:
        r->itn = false;
        m[7] = req[6];
        break;
    default:
        unsupported("itnim", req);
        return;
    }
    bcb_respond(s, fn, q, m);
}

/* ---- FCP I/O ----------------------------------------------------------- */

enum { IOIM_ABORT = 1, IOIM_CLEANUP = 2 };
enum { IOS_OK = 0, IOS_HOST_ABORTED = 1, IOS_ABORTED = 2, IOS_PROTO_ERR = 6,
       IOS_UTAG = 7 };
#define SGE_SIZE            12
#define SGE_LAST            3
#define SGE_PAGE_END        1
#define SGE_PAGE_SLOTS      8
#define SGE_MAX             4096        /* elements per command, bounded */
#define RESID_OVER          1
#define RESID_UNDER         2

struct BcbIo {
    BcbState *s;
    int fn, q;
    uint16_t tag;               /* as the host numbered it */
    uint8_t rport_handle[2];
    uint8_t abort_tag[2];
    uint32_t fcp_dl;
    int dir;                    /* 1 write, 2 read, 0 none */
    int t;
    uint32_t lun;
    QEMUSGList sg;
    uint8_t cdb[16];
    QEMUTimer *delay;           /* held back by the io-delay-ms fault */
    SCSIRequest *req;           /* NULL: lost on the way, no answer yet */
    bool aborting;
    bool orphan;                /* the host forgot it: answer nothing */
};

static void io_free(BcbIo *io)
{
    BcbPort *p = &io->s->port[io->fn];

    if (!io->orphan && p->io[io->tag & IO_TAG_MASK] == io) {
        p->io[io->tag & IO_TAG_MASK] = NULL;
    }
    if (io->req) {
        io->req->hba_private = NULL;
        scsi_req_unref(io->req);
    }
    if (io->delay) {
        timer_free(io->delay);
    }
    qemu_sglist_destroy(&io->sg);
    g_free(io);
}

static void io_answer(BcbState *s, int fn, int q, uint16_t tag,
                      const uint8_t *rport, uint8_t status,
                      const uint8_t *abort_tag)
{
    uint8_t m[BCB_ELEM];

    msg_init(m, MC_IOIM, REPLY(1), fn);
    stw_be_p(m + 4, tag);
    if (rport) {
        memcpy(m + 6, rport, 2);
    }
    m[8] = status;
    m[9] = 1;                   /* the tag may be used again */
    if (abort_tag) {
        memcpy(m + 10, abort_tag, 2);
    }
    bcb_respond(s, fn, q, m);
}

/* One element of the list: w0 flags and length, w1 w2 the address. */
static void sge_decode(const uint8_t *e, bool big, unsigned *flags,
                       uint32_t *len, uint64_t *addr)
{
    uint32_t w0 = big ? ldl_be_p(e) : ldl_le_p(e);
    uint32_t lo = big ? ldl_be_p(e + 4) : ldl_le_p(e + 4);
    uint32_t hi = big ? ldl_be_p(e + 8) : ldl_le_p(e + 8);

    *flags = w0 >> 30;
    *len = w0 & 0x0fffffff;
    *addr = (uint64_t)hi << 32 | lo;
}

/*
 * The data buffer: the first element inline (big-endian words), the rest
 * on chained pages in host memory (little-endian words), seven data
 * elements to a page and the eighth pointing on.
 */
static bool io_sglist(BcbState *s, BcbIo *io, const uint8_t *req)
{
    uint8_t page[SGE_PAGE_SLOTS * SGE_SIZE];
    unsigned flags, n = 0, slot;
    uint32_t len;
    uint64_t addr, next, total = 0;

    pci_dma_sglist_init(&io->sg, fn_dev(s, io->fn), 4);
    if (!io->fcp_dl) {
        return true;
    }
    sge_decode(req + 40, true, &flags, &len, &addr);
    qemu_sglist_add(&io->sg, addr, len);
    total += len;
    if (flags == SGE_LAST) {
        goto check;
    }
    sge_decode(req + 52, true, &flags, &len, &next);
    while (n < SGE_MAX) {
        if (!guest_read(s, io->fn, next, page, sizeof(page),
                        "scatter-gather page")) {
            return false;
        }
        for (slot = 0; slot < SGE_PAGE_SLOTS - 1; slot++, n++) {
            sge_decode(page + SGE_SIZE * slot, false, &flags, &len, &addr);
            qemu_sglist_add(&io->sg, addr, len);
            total += len;
            if (flags == SGE_LAST) {
                goto check;
            }
            if (flags == SGE_PAGE_END) {
                break;
            }
        }
        if (flags != SGE_PAGE_END) {
            break;
        }
        sge_decode(page + SGE_SIZE * (slot + 1), false, &flags, &len, &next);
    }
    qemu_log_mask(LOG_GUEST_ERROR, "%s: I/O tag %u: scatter-gather list "
                  "without an end\n", TYPE_BROCADE_CB, io->tag);
    return false;
check:
    if (total < io->fcp_dl) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: I/O tag %u: %u bytes to move, "
                      "%" PRIu64 " bytes of buffer\n", TYPE_BROCADE_CB,
                      io->tag, io->fcp_dl, total);
        return false;
    }
    return true;
}

/* Single-level LUN addressing (peripheral or flat space). */
static uint32_t fcp_lun(const uint8_t *l)
{
    return (l[0] & 0x3f) << 8 | l[1];
}

static void io_submit(BcbIo *io, SCSIDevice *d);

static void io_delayed(void *opaque)
{
    BcbIo *io = opaque;
    SCSIDevice *d;

    timer_free(io->delay);
    io->delay = NULL;
    d = scsi_device_find(&io->s->bus, 0, io->t, io->lun);
    if (d && io->s->port[io->fn].link_up) {
        io_submit(io, d);
    }
}

static void bcb_io_start(BcbState *s, int fn, const uint8_t *req, int q)
{
    BcbPort *p = &s->port[fn];
    uint16_t tag = lduw_be_p(req + 4);
    unsigned idx = tag & IO_TAG_MASK;
    BcbRport *r;
    BcbIo *io;
    SCSIDevice *d;
    bool faulty;

    if (q < 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: I/O request through the "
                      "mailbox\n", TYPE_BROCADE_CB);
        return;
    }
    if (idx >= p->max_ios || p->io[idx]) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: I/O tag %u %s\n", TYPE_BROCADE_CB,
                      tag, idx >= p->max_ios ? "beyond the configured I/Os"
                      : "already in use");
        return;
    }
    r = rport_get(s, fn, req + 6);
    if (!r || !r->itn) {
        io_answer(s, fn, q, tag, req + 6, IOS_PROTO_ERR, NULL);
        return;
    }
    io = g_new0(BcbIo, 1);
    io->s = s;
    io->fn = fn;
    io->q = q;
    io->tag = tag;
    memcpy(io->rport_handle, r->host_handle, 2);
    io->fcp_dl = ldl_be_p(req + 36);
    io->dir = req[19] & 3;
    io->lun = fcp_lun(req + 8);
    io->t = bcb_fabric_target(s, r->pid);
    if ((req[19] >> 2) || io->dir == 3 || !io_sglist(s, io, req)) {
        /* longer CDBs and bidirectional commands are not offered */
        io_answer(s, fn, q, tag, io->rport_handle, IOS_PROTO_ERR, NULL);
        qemu_sglist_destroy(&io->sg);
        g_free(io);
        return;
    }
    p->io[idx] = io;
    d = io->t < 0 || !bcb_fabric_session(s, io->t, r->local_pid) ? NULL :
        scsi_device_find(&s->bus, 0, io->t, io->lun);
    faulty = s->fault_lun < 0 || s->fault_lun == (io->t << 16 | io->lun);
    if (!d || !p->link_up || (faulty && (s->io_drop || s->io_hang))) {
        /* the frame goes nowhere: the host's timer and abort will tell */
        if (d && p->link_up && s->io_drop) {
            s->io_drop--;
        }
        return;
    }
    memcpy(io->cdb, req + 20, sizeof(io->cdb));
    if (faulty && s->io_delay_ms) {
        /* the target sits on the command for a while */
        io->delay = timer_new_ms(QEMU_CLOCK_VIRTUAL, io_delayed, io);
        timer_mod(io->delay, qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) +
                  s->io_delay_ms);
        return;
    }
    io_submit(io, d);
}

/* Hand the command to the LUN, QEMU's SCSI device. */
static void io_submit(BcbIo *io, SCSIDevice *d)
{
    BcbState *s = io->s;
    BcbPort *p = &s->port[io->fn];
    unsigned idx = io->tag & IO_TAG_MASK;
    int32_t xfer;

    io->req = scsi_req_new(d, idx, io->lun, io->cdb, sizeof(io->cdb), io);
    xfer = scsi_req_enqueue(io->req);
    if ((xfer > 0 && io->dir != 2) || (xfer < 0 && io->dir != 1)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: I/O tag %u: data direction %d "
                      "does not match the command\n", TYPE_BROCADE_CB,
                      io->tag, io->dir);
        p->io[idx] = NULL;
        io->orphan = true;
        io_answer(s, io->fn, io->q, io->tag, io->rport_handle, IOS_PROTO_ERR,
                  NULL);
        scsi_req_cancel(io->req);
        return;
    }
    if (xfer) {
        scsi_req_continue(io->req);
    }
}

static QEMUSGList *bcb_get_sg_list(SCSIRequest *req)
{
    BcbIo *io = req->hba_private;

    return &io->sg;
}

static void bcb_io_complete(SCSIRequest *req, size_t resid)
{
    BcbIo *io = req->hba_private;
    BcbState *s = io->s;
    BcbPort *p = &s->port[io->fn];
    uint8_t m[BCB_ELEM], sense[SCSI_SENSE_BUF_SIZE];
    uint32_t want = req->cmd.xfer;
    unsigned idx = io->tag & IO_TAG_MASK;
    int n;

    if (io->orphan || io->aborting) {
        if (io->aborting && !io->orphan) {
            io_answer(s, io->fn, io->q, io->tag, io->rport_handle,
                      IOS_HOST_ABORTED, io->abort_tag);
        }
        io_free(io);
        return;
    }
    if (req->status == GOOD && !resid && want == io->fcp_dl) {
        msg_init(m, MC_IOIM_IOCOM, REPLY(1), io->fn);
        stw_be_p(m + 4, io->tag);
        bcb_respond(s, io->fn, io->q, m);
        io_free(io);
        return;
    }
    msg_init(m, MC_IOIM, REPLY(1), io->fn);
    stw_be_p(m + 4, io->tag);
    memcpy(m + 6, io->rport_handle, 2);
    m[9] = 1;
    m[12] = req->status;
    if (req->status == CHECK_CONDITION) {
        n = scsi_req_get_sense(req, sense, sizeof(sense));
        if (n > 0 && idx / SENSE_PER_SEG < SENSE_SEGS &&
            guest_write(s, io->fn, p->sense_base[idx / SENSE_PER_SEG] +
                        (idx % SENSE_PER_SEG) * SENSE_SLOT, sense, n,
                        "sense data")) {
            m[13] = n;
        }
    }
    if (want > io->fcp_dl) {
        m[14] = RESID_OVER;
        stl_be_p(m + 16, want - io->fcp_dl);
    } else if (resid || want < io->fcp_dl) {
        m[14] = RESID_UNDER;
        stl_be_p(m + 16, MAX(resid, io->fcp_dl - want));
    }
    bcb_respond(s, io->fn, io->q, m);
    io_free(io);
}

static void bcb_io_cancel(SCSIRequest *req)
{
    BcbIo *io = req->hba_private;

    if (io->aborting && !io->orphan) {
        io_answer(io->s, io->fn, io->q, io->tag, io->rport_handle,
                  IOS_HOST_ABORTED, io->abort_tag);
        io_free(io);
        return;
    }
    if (io->orphan) {
        io_free(io);
        return;
    }
    /* ended by a reset: lost until the host cleans it up */
    req->hba_private = NULL;
    scsi_req_unref(req);
    io->req = NULL;
}

static void bcb_io_abort(BcbState *s, int fn, const uint8_t *req, int q)
{
    BcbPort *p = &s->port[fn];
    uint16_t tag = lduw_be_p(req + 4);
    BcbIo *io = p->io[tag & IO_TAG_MASK];

    if (req[M_ID] != IOIM_ABORT && req[M_ID] != IOIM_CLEANUP) {
        unsupported("IOIM", req);
        return;
    }
    if (!io || io->tag != tag) {
        io_answer(s, fn, q, tag, NULL, IOS_UTAG, req + 6);
        return;
    }
    memcpy(io->abort_tag, req + 6, 2);
    io->q = q;
    hang_reset(s, BCB_HANG_ABORT, io->t, io->lun);
    if (!io->req) {
        io_answer(s, fn, q, tag, io->rport_handle, IOS_HOST_ABORTED,
                  io->abort_tag);
        io_free(io);
        return;
    }
    io->aborting = true;
    scsi_req_cancel(io->req);
}

/* The host forgot its I/O (IOC reset): end them without an answer. */
static void io_forget_all(BcbPort *p)
{
    int i;

    for (i = 0; i <= IO_TAG_MASK; i++) {
        BcbIo *io = p->io[i];

        if (!io) {
            continue;
        }
        p->io[i] = NULL;
        io->orphan = true;
        if (io->req) {
            scsi_req_cancel(io->req);
        } else {
            io_free(io);
        }
    }
}

/* ---- task management --------------------------------------------------- */

enum { TSK_REQ = 1, TSK_ABORT = 2 };
enum { TSKS_OK = 0, TSKS_NOT_SUPP = 4, TSKS_FAILED = 5, TSKS_ABORTED = 11 };
#define TM_ABORT_TASK_SET   0x02
#define TM_CLEAR_TASK_SET   0x04
#define TM_LUN_RESET        0x10
#define TM_TARGET_RESET     0x20

/* End the I/O in scope; the host cleans each one up afterwards. */
static void tm_end_ios(BcbPort *p, int t, int lun)
{
    int i;

    for (i = 0; i <= IO_TAG_MASK; i++) {
        BcbIo *io = p->io[i];

        if (!io || io->t != t || (lun >= 0 && io->lun != lun)) {
            continue;
        }
        if (io->delay) {
            timer_free(io->delay);
            io->delay = NULL;
        }
        if (io->req) {
            scsi_req_cancel(io->req);
        }
    }
}

static void bcb_tsk_msg(BcbState *s, int fn, const uint8_t *req, int q)
{
    BcbPort *p = &s->port[fn];
    uint8_t m[BCB_ELEM];
    BcbRport *r;
    BusChild *kid;
    int t, lun;

    msg_init(m, MC_TSKIM, REPLY(1), fn);
    memcpy(m + 4, req + 4, 2);
    if (req[M_ID] == TSK_ABORT) {
        m[6] = TSKS_ABORTED;
        bcb_respond(s, fn, q, m);
        return;
    }
    r = rport_get(s, fn, req + 6);
    t = r ? bcb_fabric_target(s, r->pid) : -1;
    if (t < 0 || !bcb_fabric_session(s, t, r->local_pid)) {
        m[6] = TSKS_FAILED;
        bcb_respond(s, fn, q, m);
        return;
    }
    lun = fcp_lun(req + 8);
    switch (req[16]) {
    case TM_ABORT_TASK_SET:
    case TM_CLEAR_TASK_SET:
        tm_end_ios(p, t, lun);
        hang_reset(s, BCB_HANG_LUN, t, lun);
        break;
    case TM_LUN_RESET:
    case TM_TARGET_RESET:
        tm_end_ios(p, t, req[16] == TM_LUN_RESET ? lun : -1);
        hang_reset(s, req[16] == TM_LUN_RESET ? BCB_HANG_LUN :
                   BCB_HANG_TARGET, t, lun);
        QTAILQ_FOREACH(kid, &s->bus.qbus.children, sibling) {
            SCSIDevice *d = SCSI_DEVICE(kid->child);

            if (d->id == t && (req[16] == TM_TARGET_RESET || d->lun == lun)) {
                device_cold_reset(DEVICE(d));
            }
        }
        break;
    default:
        m[6] = TSKS_NOT_SUPP;
        break;
    }
    bcb_respond(s, fn, q, m);
}

/* ---- services only management tools ask for, through the driver's bsg */

enum {
    DIAG_BEACON = 1, DIAG_LOOPBACK = 2, DIAG_FWPING = 3, DIAG_TEMP = 4,
    DIAG_LEDTEST = 5, DIAG_QTEST = 6, DIAG_DPORT = 7,
};
enum { SFP_SHOW = 1 };
#define ST_PORT_ENABLED     47          /* the port must be disabled first */
#define ST_PHY_ABSENT       183
#define ST_FRU_ABSENT       240
#define DIAG_DMA_MAX        2048        /* the host's ping buffer */
#define BEACON_MAX_S        3600
#define CHIP_TEMP_C         45
#define SFP_STATE_VALID     3
#define SFP_MEM_SIZE        248         /* serial ID, then diagnostics */

/* Answer a message the way it came: by mailbox (q < 0) or on ring q. */
static void bcb_answer(BcbState *s, int fn, int q, const uint8_t *m)
{
    if (q < 0) {
        mbox_post(s, fn, m, BCB_MBOX_BYTES);
    } else {
        bcb_respond(s, fn, q, m);
    }
}

/* The beacon of port fn goes dark now: forget the answer planned for later. */
static void beacon_cancel(BcbState *s, int fn)
{
    BcbPending *e, *n;

    QSIMPLEQ_FOREACH_SAFE(e, &s->later, next, n) {
        if (e->fn == fn && e->q < 0 && e->msg[M_CLASS] == MC_DIAG &&
            e->msg[M_ID] == REPLY(DIAG_BEACON)) {
            QSIMPLEQ_REMOVE(&s->later, e, BcbPending, next);
            g_free(e);
        }
    }
}

/*
 * Firmware ping: the firmware reads the host's buffer and writes it back
 * inverted, count times over; the host checks the pattern it ends with.
 */
static uint8_t diag_fwping(BcbState *s, int fn, const uint8_t *req)
{
    uint32_t buf[DIAG_DMA_MAX / 4];
    uint32_t len = ldl_be_p(req + 12);
    uint64_t addr = msg_addr(req, 4);
    unsigned i;

    if (len > sizeof(buf) || len % 4) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: ping buffer of %u bytes\n",
                      TYPE_BROCADE_CB, len);
        return ST_FAILED;
    }
    if (!guest_read(s, fn, addr, buf, len, "ping buffer")) {
        return ST_FAILED;
    }
    if (ldl_be_p(req + 20) & 1) {
        for (i = 0; i < len / 4; i++) {
            buf[i] = ~buf[i];
        }
    }
    return guest_write(s, fn, addr, buf, len, "ping buffer") ? ST_OK :
           ST_FAILED;
}

static void bcb_diag_msg(BcbState *s, int fn, const uint8_t *req, int q)
{
    BcbPort *p = &s->port[fn];
    uint8_t m[BCB_ELEM] = { 0 };
    uint32_t n;
    int i;

    msg_header(m, req, REPLY(req[M_ID]));
    switch (req[M_ID]) {
    case DIAG_BEACON:
        /* the answer says the beacon went dark: now, or after its period */
        beacon_cancel(s, fn);
        if (req[8]) {
            BcbPending *e = g_new(BcbPending, 1);

            memcpy(e->msg, m, BCB_ELEM);
            e->fn = fn;
            e->q = -1;
            e->gen = p->gen;
            e->due = qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) +
                     MIN(ldl_be_p(req + 4), BEACON_MAX_S) * 1000ll;
            later_add(s, e);
            return;
        }
        break;
    case DIAG_FWPING:
        memcpy(m + 4, req + 16, 4);             /* the pattern, echoed */
        m[8] = req[24];
        m[9] = diag_fwping(s, fn, req);
        break;
    case DIAG_TEMP:
        /* junction sensor only: this card has no board sensor */
        stw_be_p(m + 4, CHIP_TEMP_C);
        m[9] = 1;
        break;
    case DIAG_LEDTEST:
        break;
    case DIAG_LOOPBACK:
        /* every frame sent round the loop comes back intact */
        n = ldl_le_p(req + 4);          /* the host leaves it unswapped */
        if (p->port_enabled) {
            m[24] = ST_PORT_ENABLED;
            break;
        }
        stl_be_p(m + 4, n);
        stl_be_p(m + 12, n);
        break;
    case DIAG_QTEST:
        /* the element comes back on the same queue, inverted */
        for (i = 4; i < BCB_ELEM; i += 4) {
            stl_le_p(m + i, ~ldl_le_p(req + i));
        }
        break;
    case DIAG_DPORT:
        stl_be_p(m + 4, ST_UNSUPP);
        break;
    default:
        unsupported("diagnostics", req);
        return;
    }
    bcb_answer(s, fn, q, m);
}

static void put_text(uint8_t *dst, const char *txt, size_t len)
{
    memset(dst, ' ', len);
    memcpy(dst, txt, MIN(strlen(txt), len));
}

/* The serial ID of the optical module: 8G shortwave, LC, 50 and 62.5 um. */
static void sfp_id(BcbState *s, int fn, uint8_t *id)
{
    char sn[17];
    int i;

    id[0] = 0x03;                               /* SFP */
    id[1] = 0x04;                               /* serial ID by 2-wire */
    id[2] = 0x07;                               /* LC */
    id[7] = 0x40;                               /* short distance */
    id[8] = 0x40;                               /* shortwave laser, no OFC */
    id[9] = 0x0c;                               /* multimode 50 and 62.5 */
    id[10] = 0x54;                              /* 800, 400, 200 MB/s */
    id[11] = 0x01;                              /* 8B/10B */
    id[12] = 85;                                /* 8.5 GBd */
    id[16] = 15;                                /* 150 m of OM2 */
    id[17] = 7;                                 /* 70 m of OM1 */
    id[19] = 30;                                /* 300 m of OM3 */
    put_text(id + 20, "QEMU", 16);
    id[37] = 0x52;
    id[38] = 0x54;
    put_text(id + 40, "BCB-SFP-8G-SW", 16);
    put_text(id + 56, "A", 4);
    stw_be_p(id + 60, 850);                     /* nm */
    for (i = 0; i < 63; i++) {
        id[63] += id[i];
    }
    snprintf(sn, sizeof(sn), "QSFP%012" PRIx64,
             (uint64_t)((s->wwpn + fn) & 0xffffffffffffu));
    put_text(id + 68, sn, 16);
    put_text(id + 84, "240101", 8);
    id[94] = 0x03;                              /* SFF-8472 rev 10.2 */
    for (i = 64; i < 95; i++) {
        id[95] += id[i];
    }
}

static void bcb_sfp_msg(BcbState *s, int fn, const uint8_t *req, int q)
{
    uint8_t m[BCB_ELEM] = { 0 };
    uint8_t mem[SFP_MEM_SIZE] = { 0 };

    msg_header(m, req, REPLY(req[M_ID]));
    if (req[M_ID] != SFP_SHOW) {
        unsupported("SFP", req);
        return;
    }
    sfp_id(s, fn, mem);
    m[4] = guest_write(s, fn, msg_addr(req, 8), mem,
                       MIN(ldl_be_p(req + 16), sizeof(mem)),
                       "SFP data") ? ST_OK : ST_FAILED;
    m[5] = SFP_STATE_VALID;
    bcb_answer(s, fn, q, m);
}

/*
 * The adapter block (port personalities), CEE (DCB on converged cards),
 * an external PHY and FRU data: a Crossbow FC HBA has none of them, and
 * says so in each service's own status field.
 */
static void bcb_absent_msg(BcbState *s, int fn, const uint8_t *req, int q)
{
    /* the last request id each of these services knows */
    static const uint8_t last_id[] = {
        [MC_ABLK] = 8, [MC_CEE] = 3, [MC_PHY] = 4, [MC_FRU] = 4,
    };
    uint8_t m[BCB_ELEM] = { 0 };

    if (req[M_ID] < 1 || req[M_ID] > last_id[req[M_CLASS]]) {
        unsupported("absent-module", req);
        return;
    }
    msg_header(m, req, REPLY(req[M_ID]));
    switch (req[M_CLASS]) {
    case MC_ABLK:
    case MC_CEE:
        m[4] = ST_UNSUPP;
        break;
    case MC_PHY:
        stl_be_p(m + 4, ST_PHY_ABSENT);
        break;
    case MC_FRU:
        stl_be_p(m + 4, ST_FRU_ABSENT);
        break;
    }
    bcb_answer(s, fn, q, m);
}

/* A message from the host, by mailbox (q < 0) or from request ring q. */
typedef void BcbService(BcbState *s, int fn, const uint8_t *m, int q);

/* The firmware's services, by message class. */
static BcbService *const bcb_services[] = {
    [MC_IOC] = bcb_ioc_msg,
    [MC_FLASH] = bcb_flash_msg,
    [MC_FCPORT] = bcb_fcport_msg,
    [MC_IOCFC] = bcb_iocfc_msg,
    [MC_UF] = bcb_uf_msg,
    [MC_FCXP] = bcb_fcxp_msg,
    [MC_LPS] = bcb_lps_msg,
    [MC_RPORT] = bcb_rport_msg,
    [MC_ITN] = bcb_itn_msg,
    [MC_IOIM_READ] = bcb_io_start,
    [MC_IOIM_WRITE] = bcb_io_start,
    [MC_IOIM_IO] = bcb_io_start,
    [MC_IOIM] = bcb_io_abort,
    [MC_TSKIM] = bcb_tsk_msg,
    [MC_PORT] = bcb_port_msg,
    [MC_DIAG] = bcb_diag_msg,
    [MC_SFP] = bcb_sfp_msg,
    [MC_ABLK] = bcb_absent_msg,
    [MC_CEE] = bcb_absent_msg,
    [MC_PHY] = bcb_absent_msg,
    [MC_FRU] = bcb_absent_msg,
};

static void bcb_fw_msg(BcbState *s, int fn, const uint8_t *m, int q)
{
    BcbService *fnc = m[M_CLASS] < ARRAY_SIZE(bcb_services) ?
                      bcb_services[m[M_CLASS]] : NULL;

    if (!fnc) {
        qemu_log_mask(LOG_UNIMP, "%s: message class %u id %u not handled\n",
                      TYPE_BROCADE_CB, m[M_CLASS], m[M_ID]);
        return;
    }
    fnc(s, fn, m, q);
}

static void bcb_doorbell(BcbState *s, int fn)
{
    uint8_t m[BCB_MBOX_BYTES];
    int i;

    for (i = 0; i < BCB_MBOX_BYTES / 4; i++) {
        stl_le_p(m + 4 * i, *reg(s, R_MBIN(fn) + 4 * i));
    }
    /* the message is taken: the host may write the next one */
    *reg(s, R_DOORBELL(fn)) = 0;
    if (!s->port[fn].running) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: mailbox message %u/%u while the "
                      "firmware is not running\n", TYPE_BROCADE_CB,
                      m[M_CLASS], m[M_ID]);
        return;
    }
    bcb_fw_msg(s, fn, m, -1);
}

/* Deferred firmware work: runs outside the register access that caused it. */
static void bcb_work(void *opaque)
{
    BcbState *s = opaque;
    int fn, q;

    for (fn = 0; fn < 2; fn++) {
        BcbPort *p = &s->port[fn];

        mbox_deliver(s, fn);
        /* a response the host has not taken yet keeps its cause raised */
        for (q = 0; p->configured && q < p->nq; q++) {
            if (p->rsp[q].pi != p->rsp[q].ci &&
                !(*reg(s, R_CAUSE(fn)) & CAUSE_RSP(fn, q))) {
                bcb_raise(s, fn, CAUSE_RSP(fn, q));
            }
        }
    }
}

/* ---- shared memory window ---------------------------------------------- */

static uint8_t *smem_word(BcbState *s, int fn, hwaddr win)
{
    uint32_t page = *reg(s, R_PAGE(fn)) & 0x1ff;
    uint64_t off;

    if (page < SMEM_FIRST_PAGE) {
        goto bad;
    }
    off = (uint64_t)(page - SMEM_FIRST_PAGE) * SMEM_WINDOW_SIZE + win;
    if (off + 4 > BCB_SMEM_SIZE) {
        goto bad;
    }
    return s->smem + off;
bad:
    qemu_log_mask(LOG_GUEST_ERROR, "%s: shared memory page 0x%x offset 0x%"
                  HWADDR_PRIx " is outside the 2 MiB memory\n",
                  TYPE_BROCADE_CB, page, win);
    return NULL;
}

/* ---- register access --------------------------------------------------- */

static uint64_t bcb_read(void *opaque, hwaddr addr, unsigned size)
{
    BcbFunc *f = opaque;
    BcbState *s = f->chip;
    uint32_t *r = reg(s, addr);
    uint32_t val;

    if (addr >= SMEM_WINDOW && addr < SMEM_WINDOW + SMEM_WINDOW_SIZE) {
        uint8_t *w = smem_word(s, f->fn, addr - SMEM_WINDOW);

        return w ? ldl_be_p(w) : 0;
    }
    switch (addr) {
    case R_SEM(0) ... R_SEM(3):
        /* reading takes a free semaphore; the value is the old state */
        val = *r & 1;
        *r = 1;
        return val;
    case R_FLASH_SEM:
    case R_FLASH_FIRST ... R_FLASH_LAST:
        /* no serial flash fitted: the driver boots the image it has */
        return 0;
    default:
        return *r;
    }
}

static void bcb_write_cause(BcbState *s, int fn, uint32_t val)
{
    int q;

    /* mailbox causes follow the mailbox status; the rest clear on write */
    *reg(s, R_CAUSE(fn)) &= ~(val & ~(CAUSE_MBOX(0) | CAUSE_MBOX(1)));
    for (q = 0; q < BCB_NQ; q++) {
        if (val & CAUSE_RSP(fn, q)) {
            qemu_bh_schedule(s->work);
        }
    }
    bcb_irq_update(s, fn);
}

static void bcb_ring_register(BcbState *s, hwaddr addr, uint32_t val)
{
    int hq;

    for (hq = 0; hq < 2 * BCB_NQ; hq++) {
        if (addr == R_REQ_PI(hq)) {
            bcb_req_ring(s, hq / BCB_NQ, hq % BCB_NQ, val);
            return;
        }
        if (addr == R_RSP_CI(hq)) {
            bcb_rsp_ci(s, hq / BCB_NQ, hq % BCB_NQ, val);
            return;
        }
    }
}

static void bcb_write(void *opaque, hwaddr addr, uint64_t val64, unsigned size)
{
    BcbFunc *f = opaque;
    BcbState *s = f->chip;
    uint32_t *r = reg(s, addr);
    uint32_t val = val64;
    uint32_t old = *r;

    if (addr >= SMEM_WINDOW && addr < SMEM_WINDOW + SMEM_WINDOW_SIZE) {
        uint8_t *w = smem_word(s, f->fn, addr - SMEM_WINDOW);

        if (w) {
            /* the host swaps each word: most significant byte first */
            stl_be_p(w, val);
        }
        return;
    }
    switch (addr) {
    case R_CAUSE(0):
    case R_CAUSE(1):
        bcb_write_cause(s, addr == R_CAUSE(1), val);
        return;
    case R_MASK(0):
    case R_MASK(1):
        *r = val;
        bcb_irq_update(s, addr == R_MASK(1));
        return;
    case R_SEM(0) ... R_SEM(3):
        if (val & 1) {
            *r = 0;
        }
        return;
    case R_PSS:
        if ((val & PSS_LMEM_INIT) && !(val & PSS_LMEM_RESET)) {
            val |= PSS_LMEM_DONE;
        }
        *r = val;
        if ((old & PSS_LPU0_HALT) && !(val & PSS_LPU0_HALT)) {
            bcb_fw_start(s);
        } else if (!(old & PSS_LPU0_HALT) && (val & PSS_LPU0_HALT)) {
            bcb_fw_halt(s);
        }
        return;
    case R_PSS_ERR:
        *r &= ~val;
        return;
    case R_ERR_SET:
        /* one function tells the other its IOC failed */
        *reg(s, R_PSS_ERR) |= val & 0xfff;
        bcb_raise(s, 0, CAUSE_ERR_PSS);
        bcb_raise(s, 1, CAUSE_ERR_PSS);
        return;
    case R_FLASH_SEM:
    case R_FLASH_FIRST ... R_FLASH_LAST:
        return;
    case R_DOORBELL(0):
    case R_DOORBELL(1):
        *r = val;
        if (val & 1) {
            bcb_doorbell(s, addr == R_DOORBELL(1));
        }
        return;
    case R_MBSTAT(0):
    case R_MBSTAT(1): {
        int fn = addr == R_MBSTAT(1);

        if (val & 1) {
            /* the host took the message: lower it, show the next */
            *r &= ~1u;
            *reg(s, R_CAUSE(fn)) &= ~CAUSE_MBOX(fn);
            bcb_irq_update(s, fn);
            qemu_bh_schedule(s->work);
        }
        return;
    }
    case R_REQ_PI(0) ... R_RSP_CI(7):
        *r = val;
        bcb_ring_register(s, addr, val);
        return;
    default:
        *r = val;
        return;
    }
}

static const MemoryRegionOps bcb_bar0_ops = {
    .read = bcb_read,
    .write = bcb_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

/* ---- device ------------------------------------------------------------ */

static void bcb_reset(DeviceState *dev)
{
    BcbState *s = BROCADE_CB(dev);

    bcb_fw_halt(s);
    memset(s->regs, 0, sizeof(s->regs));
    memset(s->smem, 0, BCB_SMEM_SIZE);
    *reg(s, R_MASK(0)) = 0xffffffff;
    *reg(s, R_MASK(1)) = 0xffffffff;
    *reg(s, R_PSS) = PSS_LPU0_HALT | PSS_LPU1_HALT | PSS_LMEM_RESET;
    s->port[0].active = 0;
    s->port[1].active = 0;
    pci_set_irq(PCI_DEVICE(s), 0);
    if (s->fn1) {
        pci_set_irq(s->fn1, 0);
    }
}

static const struct SCSIBusInfo bcb_scsi_info = {
    .tcq = true,
    .max_target = BCB_MAX_TARGETS - 1,
    .max_lun = 16383,
    .get_sg_list = bcb_get_sg_list,
    .complete = bcb_io_complete,
    .cancel = bcb_io_cancel,
};

static void bcb_realize(PCIDevice *pci, Error **errp)
{
    BcbState *s = BROCADE_CB(pci);
    int fn, i;

    s->fault_lun = -1;
    if (!s->serial) {
        s->serial = g_strdup("BFA0825MODL");
    }
    for (fn = 0; fn < 2; fn++) {
        s->port[fn].fn = fn;
        for (i = 0; i < BCB_NQ; i++) {
            QSIMPLEQ_INIT(&s->port[fn].backlog[i]);
        }
    }
    s->smem = g_malloc0(BCB_SMEM_SIZE);
    for (i = 0; i < FLASH_PARTS; i++) {
        s->flash[i] = g_malloc0(flash_layout[i].size);
    }
    s->work = qemu_bh_new_guarded(bcb_work, s,
                                  &DEVICE(s)->mem_reentrancy_guard);
    s->beat = timer_new_ms(QEMU_CLOCK_VIRTUAL, bcb_heartbeat, s);
    s->link = timer_new_ms(QEMU_CLOCK_VIRTUAL, link_timer, s);
    s->later_timer = timer_new_ms(QEMU_CLOCK_VIRTUAL, later_run, s);
    QSIMPLEQ_INIT(&s->later);

    pci->config[PCI_INTERRUPT_PIN] = 1;
    s->func[0] = (BcbFunc) { s, 0 };
    s->func[1] = (BcbFunc) { s, 1 };
    memory_region_init_io(&s->bar0, OBJECT(s), &bcb_bar0_ops, &s->func[0],
                          "brocade-825-regs", sizeof(s->regs));
    pci_register_bar(pci, 0, PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, &s->bar0);
    if (s->msix) {
        if (msix_init_exclusive_bar(pci, MSIX_ENTRIES, 2, errp)) {
            return;
        }
        for (i = 0; i < MSIX_ENTRIES; i++) {
            msix_vector_use(pci, i);
        }
    }
    scsi_bus_init(&s->bus, sizeof(s->bus), DEVICE(pci), &bcb_scsi_info);
}

static void bcb_exit(PCIDevice *pci)
{
    BcbState *s = BROCADE_CB(pci);
    int i;

    if (msix_present(pci)) {
        msix_unuse_all_vectors(pci);
        msix_uninit_exclusive_bar(pci);
    }
    timer_free(s->beat);
    timer_free(s->link);
    timer_free(s->later_timer);
    if (s->fuzz_rand) {
        g_rand_free(s->fuzz_rand);
        s->fuzz_rand = NULL;
    }
    while (!QSIMPLEQ_EMPTY(&s->later)) {
        BcbPending *e = QSIMPLEQ_FIRST(&s->later);

        QSIMPLEQ_REMOVE_HEAD(&s->later, next);
        g_free(e);
    }
    qemu_bh_delete(s->work);
    g_free(s->smem);
    for (i = 0; i < FLASH_PARTS; i++) {
        g_free(s->flash[i]);
    }
}

static Property bcb_props[] = {
    DEFINE_PROP_UINT64("wwpn", BcbState, wwpn, 0x10000005330a0b00ull),
    DEFINE_PROP_UINT64("wwnn", BcbState, wwnn, 0x20000005330a0b00ull),
    DEFINE_PROP_STRING("serial", BcbState, serial),
    DEFINE_PROP_BOOL("msix", BcbState, msix, true),
    DEFINE_PROP_END_OF_LIST(),
};

/*
 * Faults, set at run time with qom-set on the device:
 *   link-down      the cable is pulled (true) or plugged back (false)
 *   p2p            the cable goes straight to target 0 instead of a switch
 *   targets-away   bit t set: remote port t has left the fabric (RSCN)
 *   heartbeat-stall  the firmware stops counting its heartbeat
 *   ioc-fail       (set true) the firmware reports an error and stops
 *   io-drop        the next N commands get no answer from the target
 *   io-delay-ms    every command waits this long at the target
 *   io-hang        every command gets no answer until a reset at least
 *                  this wide reaches the LUN: 1 an abort of one of them,
 *                  2 a LUN reset, 3 a target reset, 4 an IOC reset (the
 *                  host's); then it reads back 0
 *   fault-lun      target << 16 | LUN the three above apply to (else all)
 *   els-drop       the next N ELS/CT exchanges get no answer
 *   fuzz-responses this many hostile elements go onto the response rings,
 *                  each ahead of a real answer (see fuzz_element); reads
 *                  back how many are still to come
 *   fuzz-seed      the seed of their random contents (set before)
 */
static bool get_link_down(Object *obj, Error **errp)
{
    return BROCADE_CB(obj)->link_down;
}

static void set_link_down(Object *obj, bool v, Error **errp)
{
    BcbState *s = BROCADE_CB(obj);

    s->link_down = v;
    fcport_link_update(s, 0);
    fcport_link_update(s, 1);
}

static bool get_p2p(Object *obj, Error **errp)
{
    return BROCADE_CB(obj)->p2p;
}

/* The cable goes to another place: the link goes down and comes back. */
static void set_p2p(Object *obj, bool v, Error **errp)
{
    BcbState *s = BROCADE_CB(obj);
    bool down = s->link_down;

    if (v == s->p2p) {
        return;
    }
    s->link_down = true;
    fcport_link_update(s, 0);
    fcport_link_update(s, 1);
    s->p2p = v;
    s->link_down = down;
    timer_mod(s->link, qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) + 20);
}

static bool get_ioc_fail(Object *obj, Error **errp)
{
    return false;
}

/* The firmware hits an internal error: it reports it and stops. */
static void set_ioc_fail(Object *obj, bool v, Error **errp)
{
    BcbState *s = BROCADE_CB(obj);
    int fn;

    if (!v) {
        return;
    }
    for (fn = 0; fn < 2; fn++) {
        if (s->port[fn].running) {
            s->port[fn].hb_stall = true;
            bcb_raise(s, fn, CAUSE_ERR_LPU0);
        }
    }
}

static bool get_hb_stall(Object *obj, Error **errp)
{
    return BROCADE_CB(obj)->port[0].hb_stall;
}

static void set_hb_stall(Object *obj, bool v, Error **errp)
{
    BcbState *s = BROCADE_CB(obj);

    s->port[0].hb_stall = v;
    s->port[1].hb_stall = v;
}

static void get_fault_u64(Object *obj, Visitor *v, const char *name,
                          void *opaque, Error **errp)
{
    BcbState *s = BROCADE_CB(obj);
    uint64_t val = !strcmp(name, "targets-away") ? s->targets_away :
                   !strcmp(name, "io-drop") ? s->io_drop :
                   !strcmp(name, "io-delay-ms") ? s->io_delay_ms :
                   !strcmp(name, "io-hang") ? s->io_hang :
                   !strcmp(name, "fault-lun") ? (uint64_t)s->fault_lun :
                   !strcmp(name, "fuzz-responses") ? s->fuzz_left :
                   !strcmp(name, "fuzz-seed") ? s->fuzz_seed :
                   s->els_drop;

    visit_type_uint64(v, name, &val, errp);
}

static void set_fault_u64(Object *obj, Visitor *v, const char *name,
                          void *opaque, Error **errp)
{
    BcbState *s = BROCADE_CB(obj);
    uint64_t val, changed;
    int t;

    if (!visit_type_uint64(v, name, &val, errp)) {
        return;
    }
    if (!strcmp(name, "io-drop")) {
        s->io_drop = MIN(val, UINT32_MAX);
        return;
    }
    if (!strcmp(name, "fuzz-responses")) {
        s->fuzz_left = MIN(val, UINT32_MAX);
        return;
    }
    if (!strcmp(name, "fuzz-seed")) {
        s->fuzz_seed = val;
        if (s->fuzz_rand) {
            g_rand_set_seed(s->fuzz_rand, s->fuzz_seed);
        }
        return;
    }
    if (!strcmp(name, "els-drop")) {
        s->els_drop = MIN(val, UINT32_MAX);
        return;
    }
    if (!strcmp(name, "io-delay-ms")) {
        s->io_delay_ms = MIN(val, 600000);
        return;
    }
    if (!strcmp(name, "io-hang")) {
        if (val > BCB_HANG_IOC) {
            error_setg(errp, "io-hang: 0 to %d", BCB_HANG_IOC);
            return;
        }
        s->io_hang = val;
        return;
    }
    if (!strcmp(name, "fault-lun")) {
        /* target << 16 | LUN; anything else means every LUN */
        s->fault_lun = val <= ((BCB_MAX_TARGETS - 1) << 16 | 0x3fff) ?
                       (int64_t)val : -1;
        return;
    }
    changed = s->targets_away ^ val;
    s->targets_away = val;
    for (t = 0; t < BCB_MAX_TARGETS; t++) {
        if ((changed >> t) & 1) {
            bcb_fabric_target_change(s, t, (val >> t) & 1);
        }
    }
}

static const VMStateDescription bcb_vmstate = {
    .name = TYPE_BROCADE_CB,
    .unmigratable = 1,
};

static void bcb_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(klass);

    pc->vendor_id = 0x1657;
    pc->device_id = 0x0013;
    pc->class_id = 0x0c04;             /* serial bus: Fibre Channel */
    pc->revision = 1;
    pc->realize = bcb_realize;
    pc->exit = bcb_exit;
    dc->desc = "Brocade 825 8G Fibre Channel HBA (Crossbow)";
    dc->reset = bcb_reset;
    dc->vmsd = &bcb_vmstate;
    device_class_set_props(dc, bcb_props);
    object_class_property_add_bool(klass, "link-down", get_link_down,
                                   set_link_down);
    object_class_property_add_bool(klass, "p2p", get_p2p, set_p2p);
    object_class_property_add_bool(klass, "ioc-fail", get_ioc_fail,
                                   set_ioc_fail);
    object_class_property_add_bool(klass, "heartbeat-stall", get_hb_stall,
                                   set_hb_stall);
    object_class_property_add(klass, "targets-away", "uint64",
                              get_fault_u64, set_fault_u64, NULL, NULL);
    object_class_property_add(klass, "io-drop", "uint64",
                              get_fault_u64, set_fault_u64, NULL, NULL);
    object_class_property_add(klass, "els-drop", "uint64",
                              get_fault_u64, set_fault_u64, NULL, NULL);
    object_class_property_add(klass, "io-delay-ms", "uint64",
                              get_fault_u64, set_fault_u64, NULL, NULL);
    object_class_property_add(klass, "io-hang", "uint64",
                              get_fault_u64, set_fault_u64, NULL, NULL);
    object_class_property_add(klass, "fault-lun", "uint64",
                              get_fault_u64, set_fault_u64, NULL, NULL);
    object_class_property_add(klass, "fuzz-responses", "uint64",
                              get_fault_u64, set_fault_u64, NULL, NULL);
    object_class_property_add(klass, "fuzz-seed", "uint64",
                              get_fault_u64, set_fault_u64, NULL, NULL);
    set_bit(DEVICE_CATEGORY_STORAGE, dc->categories);
}

/* ---- function 1: the card's second port --------------------------------- */

/*
 * -device brocade-825,id=hba0,addr=S.0,multifunction=on
 * -device brocade-825-fn1,chip=hba0,addr=S.1
 * The second port's PCI function: its own BAR0 onto the same register file
 * (the port's registers are at their own offsets) and its own interrupts;
 * the chip, its firmware, the fabric and the LUNs are function 0's.
 */
#define TYPE_BROCADE_CB_FN1 "brocade-825-fn1"
OBJECT_DECLARE_SIMPLE_TYPE(BcbFn1State, BROCADE_CB_FN1)

struct BcbFn1State {
    PCIDevice parent_obj;
    MemoryRegion bar0;
    BcbState *chip;
};

static void bcb_fn1_realize(PCIDevice *pci, Error **errp)
{
    BcbFn1State *f = BROCADE_CB_FN1(pci);
    PCIDevice *chip;
    int i;

    if (!f->chip) {
        error_setg(errp, "%s needs chip=<id of the brocade-825>",
                   TYPE_BROCADE_CB_FN1);
        return;
    }
    chip = PCI_DEVICE(f->chip);
    if (f->chip->fn1 || pci_get_bus(pci) != pci_get_bus(chip) ||
        PCI_SLOT(pci->devfn) != PCI_SLOT(chip->devfn) ||
        PCI_FUNC(pci->devfn) != 1) {
        error_setg(errp, "%s must be function 1 of its chip's slot, once",
                   TYPE_BROCADE_CB_FN1);
        return;
    }
    pci->config[PCI_INTERRUPT_PIN] = 2;
    memory_region_init_io(&f->bar0, OBJECT(f), &bcb_bar0_ops,
                          &f->chip->func[1], "brocade-825-fn1-regs",
                          sizeof(f->chip->regs));
    pci_register_bar(pci, 0, PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, &f->bar0);
    if (f->chip->msix) {
        if (msix_init_exclusive_bar(pci, MSIX_ENTRIES, 2, errp)) {
            return;
        }
        for (i = 0; i < MSIX_ENTRIES; i++) {
            msix_vector_use(pci, i);
        }
    }
    f->chip->fn1 = pci;
}

static void bcb_fn1_exit(PCIDevice *pci)
{
    BcbFn1State *f = BROCADE_CB_FN1(pci);

    if (msix_present(pci)) {
        msix_unuse_all_vectors(pci);
        msix_uninit_exclusive_bar(pci);
    }
    if (f->chip && f->chip->fn1 == pci) {
        f->chip->fn1 = NULL;
    }
}

static Property bcb_fn1_props[] = {
    DEFINE_PROP_LINK("chip", BcbFn1State, chip, TYPE_BROCADE_CB, BcbState *),
    DEFINE_PROP_END_OF_LIST(),
};

static void bcb_fn1_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(klass);

    pc->vendor_id = 0x1657;
    pc->device_id = 0x0013;
    pc->class_id = 0x0c04;
    pc->revision = 1;
    pc->realize = bcb_fn1_realize;
    pc->exit = bcb_fn1_exit;
    dc->desc = "Brocade 825 second port (function 1 of a brocade-825)";
    dc->vmsd = &bcb_vmstate;
    device_class_set_props(dc, bcb_fn1_props);
    set_bit(DEVICE_CATEGORY_STORAGE, dc->categories);
}

static InterfaceInfo bcb_interfaces[] = {
    { INTERFACE_CONVENTIONAL_PCI_DEVICE },
    { },
};

static const TypeInfo bcb_types[] = {
    {
        .name = TYPE_BROCADE_CB,
        .parent = TYPE_PCI_DEVICE,
        .instance_size = sizeof(BcbState),
        .class_init = bcb_class_init,
        .interfaces = bcb_interfaces,
    }, {
        .name = TYPE_BROCADE_CB_FN1,
        .parent = TYPE_PCI_DEVICE,
        .instance_size = sizeof(BcbFn1State),
        .class_init = bcb_fn1_class_init,
        .interfaces = bcb_interfaces,
    },
};

DEFINE_TYPES(bcb_types)
