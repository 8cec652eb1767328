/*
 * ServerEngines BladeEngine 2 iSCSI function (PCI 19a2:0212) model.
 *
 * The model presents the three register windows of the card's iSCSI
 * function (a memory view of its configuration registers, the control and
 * status registers, the doorbells with the bootstrap mailbox) and plays the
 * part of the card's firmware: it answers the commands the host posts
 * through the mailbox and the MCC ring, keeps the event and completion
 * queues the host made in its own memory, and reports link events.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/cutils.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/pci/msix.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "migration/vmstate.h"
#include "qemu/sockets.h"
#include "be2-iscsi.h"

/* ---- register windows ---- */

#define CFG_BAR_SIZE        0x1000
#define CFG_MEMBAR_CTRL     0xfc
#define MEMBAR_INT_ENABLE   (1u << 29)

#define CSR_BAR_SIZE        0x10000
#define CSR_POST_STAGE      0xac
#define POST_ARMFW_READY    0xc000
#define CSR_ISR(fn)         (0xc18 + 4 * (fn))

#define DB_BAR_SIZE         0x20000
#define DB_TXULP0           0x40
#define DB_RXULP0           0xa0
#define DB_EQ_CQ            0x120
#define DB_MCCQ             0x140
#define DB_MBOX             0x160

#define MBOX_READY          (1u << 0)
#define MBOX_HI             (1u << 1)
#define MBOX_BYTES          272
#define MBOX_COMPL          0x100

/* a WRB of the mailbox and of the MCC ring */
#define WRB_BYTES           256
#define WRB_EMBEDDED        (1u << 0)
#define WRB_PAYLOAD         20
#define WRB_PAYLOAD_MAX     236
#define CMD_BUF_MAX         4096    /* the largest non-embedded command */

/* completion flags of an MCC completion entry */
#define MCQE_VALID          (1u << 31)
#define MCQE_ASYNC          (1u << 30)
#define MCQE_COMPLETED      (1u << 28)

#define ASYNC_LINK_STATE    0x01

/* subsystems and the commands of each the model answers */
enum { SUB_COMMON = 1, SUB_ISCSI = 2, SUB_ISCSI_INI = 6 };

enum {
    OP_CQ_CREATE = 12, OP_EQ_CREATE = 13, OP_TEMPLATE_ADD = 24,
    OP_TEMPLATE_REMOVE = 25, OP_CNTL_ATTRIBUTES = 32, OP_EQ_DELAY = 41,
    OP_MCC_DESTROY = 53, OP_CQ_DESTROY = 54, OP_EQ_DESTROY = 55,
    OP_TCP_UPLOAD = 56, OP_FW_CONFIG = 58, OP_FUNCTION_RESET = 61,
    OP_PORT_NAME = 77, OP_MCC_CREATE_EXT = 90, OP_SET_FEATURES = 191,
};

enum {
    OP_INVALIDATE_ICDS = 1, OP_SGL_POST = 2, OP_SGL_REMOVE = 3,
    OP_NIC_CONFIG = 7, OP_SET_VLAN = 14, OP_DHCP_ON = 17, OP_DHCP_OFF = 18,
    OP_MODIFY_IP = 21, OP_GET_GATEWAY = 22, OP_MODIFY_GATEWAY = 23,
    OP_IF_HANDLES = 24, OP_IF_INFO = 25, OP_ISCSI_CLEANUP = 59,
    OP_DEFQ_CREATE = 64, OP_DEFQ_DESTROY = 65, OP_WRBQ_CREATE = 66,
    OP_WRBQ_DESTROY = 67, OP_CONNECT_OFFLOAD = 70,
};

enum { OP_HBA_NAME = 6, OP_INVALIDATE_CONN = 42, OP_BOOT_TARGET = 52 };

#define IP_V4               1
#define IP_V6               0x10
#define IF_HANDLE           1
#define VLAN_OFF            0xffff

#define FW_VERSION          "2.102.517.7"
#define VENDOR_SERVERENGINES 0x19a2

/* the host's marks of a driver taking over the function and leaving it */
static const uint8_t mark_load[8] = { 0xff, 0x12, 0x34, 0xff,
                                      0xff, 0x56, 0x78, 0xff };
static const uint8_t mark_unload[8] = { 0xff, 0xaa, 0xbb, 0xff,
                                        0xff, 0xcc, 0xdd, 0xff };

/* what the model's own network hands out when asked for DHCP */
static const uint8_t dhcp_ip[4] = { 192, 0, 2, 50 };
static const uint8_t dhcp_mask[4] = { 255, 255, 255, 0 };
static const uint8_t dhcp_gw[4] = { 192, 0, 2, 254 };

/* ---- helpers ----------------------------------------------------------- */

bool be2_dma_read(Be2State *s, uint64_t addr, void *buf, size_t len,
                  const char *what)
{
    if (!addr || pci_dma_read(PCI_DEVICE(s), addr, buf, len) != MEMTX_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: cannot read %s (%zu bytes at 0x%"
                      PRIx64 ")\n", TYPE_BE2_ISCSI, what, len, addr);
        return false;
    }
    return true;
}

bool be2_dma_write(Be2State *s, uint64_t addr, const void *buf, size_t len,
                   const char *what)
{
    if (!addr || pci_dma_write(PCI_DEVICE(s), addr, buf, len) != MEMTX_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: cannot write %s (%zu bytes at 0x%"
                      PRIx64 ")\n", TYPE_BE2_ISCSI, what, len, addr);
        return false;
    }
    return true;
}

static uint64_t ld_pa(const uint8_t *p)
{
    /* a bus address as the host lays it out: low word, then high word */
    return (uint32_t)ldl_le_p(p) |
           (uint64_t)(uint32_t)ldl_le_p(p + 4) << 32;
}

/* The bus address of entry idx of a queue, 0 if the pages lack it. */
uint64_t be2_q_entry(const Be2Queue *q, uint32_t idx)
{
    uint64_t off = (uint64_t)(idx % q->entries) * q->esize;
    unsigned pg = off / 4096;

    return pg < q->npages ? q->page[pg] + off % 4096 : 0;
}

/*
 * Take the page list of a create command: n pages at p, enough of them for
 * entries * esize bytes.
 */
static bool q_setup(Be2Queue *q, const uint8_t *p, unsigned n,
                    unsigned max_pages, uint32_t entries, uint32_t esize)
{
    unsigned i;

    if (!n || n > max_pages || n > BE2_MAX_PAGES || !entries ||
        (uint64_t)entries * esize > (uint64_t)n * 4096) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: queue of %u x %u bytes in %u "
                      "pages\n", TYPE_BE2_ISCSI, entries, esize, n);
        return false;
    }
    memset(q, 0, sizeof(*q));
    for (i = 0; i < n; i++) {
        q->page[i] = ld_pa(p + 8 * i);
        if (!q->page[i] || (q->page[i] & 0xfff)) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: queue page %u at 0x%" PRIx64
                          " is not a page\n", TYPE_BE2_ISCSI, i, q->page[i]);
            return false;
        }
    }
    q->npages = n;
    q->entries = entries;
    q->esize = esize;
    q->live = true;
    return true;
}

/* ---- interrupts, event and completion queues ---------------------------- */

static void be2_intx_update(Be2State *s)
{
    PCIDevice *pci = PCI_DEVICE(s);
    bool level = false;
    int i;

    if (!msix_enabled(pci) && (s->membar_ctrl & MEMBAR_INT_ENABLE)) {
        for (i = 0; i < BE2_MAX_EQ; i++) {
            level |= s->eq[i].live && s->eq[i].latched;
        }
    }
    pci_set_irq(pci, level);
}

/* Signal an armed EQ that holds events: its vector, or the INTx line. */
static void be2_eq_kick(Be2State *s, int i)
{
    PCIDevice *pci = PCI_DEVICE(s);
    Be2Queue *eq = &s->eq[i];

    int64_t now, due;

    if (!eq->live || !eq->armed || !eq->pending ||
        !(s->membar_ctrl & MEMBAR_INT_ENABLE)) {
        return;
    }
    now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    due = eq->irq_at + (int64_t)eq->delay_mult * BE2_EQ_DELAY_NS;
    if (eq->delay_mult && now < due) {
        /* the EQ's delay holds it back; the events wait with it */
        timer_mod_anticipate_ns(s->eq_timer, due);
        return;
    }
    eq->irq_at = now;
    eq->armed = false;
    if (msix_enabled(pci)) {
        if (i < BE2_MSIX_VECTORS) {
            msix_notify(pci, i);
        }
    } else {
        eq->latched = true;
        be2_intx_update(s);
    }
}

/* An EQ interrupt the delay held back may be due now. */
static void be2_eq_timer(void *opaque)
{
    Be2State *s = opaque;
    int i;

    for (i = 0; i < BE2_MAX_EQ; i++) {
        be2_eq_kick(s, i);
    }
}

static void be2_eq_post(Be2State *s, int i, uint16_t resource)
{
    uint32_t eqe = 1u | (uint32_t)resource << 16;
    Be2Queue *eq;
    uint8_t e[4];

    if (i < 0 || i >= BE2_MAX_EQ || !s->eq[i].live) {
        return;
    }
    eq = &s->eq[i];
    if (eq->pending >= eq->entries) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: event queue %u overflows\n",
                      TYPE_BE2_ISCSI, eq->id);
        return;
    }
    stl_le_p(e, eqe);
    if (be2_dma_write(s, be2_q_entry(eq, eq->head), e, sizeof(e),
                      "event")) {
        eq->head++;
        eq->pending++;
    }
    be2_eq_kick(s, i);
}

/*
 * Fuzzing: ahead of a real entry, a hostile one.  On the MCC's queue a
 * completion with a tag no command has or an event the card does not
 * send; on an I/O queue, see be2_ofl_fuzz_cqe.
 */
static void be2_fuzz_post(Be2State *s, int i)
{
    Be2Queue *cq = &s->cq[i];
    uint8_t e[16];
    unsigned k;

    if (!s->fuzz_rand) {
        s->fuzz_rand = g_rand_new_with_seed(s->fuzz_seed);
    }
    if (s->mccq.live && i == s->mccq.peer) {
        for (k = 0; k < 12; k += 4) {
            stl_le_p(e + k, g_rand_int(s->fuzz_rand));
        }
        if (g_rand_boolean(s->fuzz_rand)) {
            /* tag0 (bytes 4..7, the WRB's own) past every MCC slot */
            stl_le_p(e + 4, g_rand_int_range(s->fuzz_rand, 0x10000,
                                             0x7fffffff));
            stl_le_p(e + 12, MCQE_VALID | MCQE_COMPLETED);
        } else {
            stl_le_p(e + 12, MCQE_VALID | MCQE_ASYNC |
                     g_rand_int_range(s->fuzz_rand, 0x20, 0x100) << 8);
        }
    } else {
        be2_ofl_fuzz_cqe(s, s->fuzz_rand, e);
    }
    if (be2_dma_write(s, be2_q_entry(cq, cq->head), e, 16, "completion")) {
        cq->head++;
        cq->pending++;
        s->fuzz_left--;
    }
}

/* Put a 16-byte entry on completion queue i; false if it has no room. */
bool be2_cq_post(Be2State *s, int i, const uint8_t *entry)
{
    Be2Queue *cq;

    if (i < 0 || i >= BE2_MAX_CQ || !s->cq[i].live) {
        return false;
    }
    cq = &s->cq[i];
    if (cq->pending >= cq->entries) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: completion queue %u overflows\n",
                      TYPE_BE2_ISCSI, cq->id);
        return false;
    }
    if (s->fuzz_left && cq->entries - cq->pending >= 2) {
        be2_fuzz_post(s, i);
    }
    if (!be2_dma_write(s, be2_q_entry(cq, cq->head), entry, 16,
                       "completion")) {
        return false;
    }
    cq->head++;
    cq->pending++;
    if (cq->armed) {
        cq->armed = false;
        be2_eq_post(s, cq->peer, cq->id);
    }
    return true;
}

/* Entries completion queue i can take before it overflows. */
unsigned be2_cq_room(Be2State *s, int i)
{
    if (i < 0 || i >= BE2_MAX_CQ || !s->cq[i].live) {
        return 0;
    }
    return s->cq[i].entries - s->cq[i].pending;
}

static void be2_eq_cq_doorbell(Be2State *s, uint32_t v)
{
    uint32_t popped = (v >> 16) & 0x1fff;
    bool rearm = v & (1u << 29);

    if (v & (1u << 10)) {
        unsigned id = (v & 0x1ff) | ((v >> 11) & 0x1f) << 9;
        Be2Queue *eq = id < BE2_MAX_EQ ? &s->eq[id] : NULL;

        if (!eq || !eq->live) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: doorbell of event queue %u, "
                          "which does not exist\n", TYPE_BE2_ISCSI, id);
            return;
        }
        eq->pending -= MIN(popped, eq->pending);
        if (popped || (v & (1u << 9))) {
            eq->latched = false;
            be2_intx_update(s);
        }
        if (rearm) {
            eq->armed = true;
            be2_eq_kick(s, id);
        }
    } else {
        unsigned id = (v & 0x3ff) | ((v >> 11) & 0x1f) << 10;
        Be2Queue *cq = id < BE2_MAX_CQ ? &s->cq[id] : NULL;

        if (!cq || !cq->live) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: doorbell of completion queue "
                          "%u, which does not exist\n", TYPE_BE2_ISCSI, id);
            return;
        }
        cq->pending -= MIN(popped, cq->pending);
        if (popped) {
            /* room again for a connection that waited for it */
            be2_ofl_kick(s);
        }
        if (rearm) {
            cq->armed = true;
            if (cq->pending) {
                /* entries the host has not taken yet: tell it again */
                cq->armed = false;
                be2_eq_post(s, cq->peer, cq->id);
            }
        }
    }
}

/* ---- link --------------------------------------------------------------- */

static void be2_link_event(Be2State *s)
{
    uint8_t e[16] = { 0 };

    if (!s->mccq.live) {
        return;
    }
    e[0] = 0;                           /* physical port */
    e[1] = s->link_down ? 0 : 1;        /* link status */
    e[2] = 1;                           /* full duplex */
    e[3] = s->link_down ? 0 : 4;        /* 10 Gbit/s */
    stl_le_p(e + 12, MCQE_VALID | MCQE_ASYNC | ASYNC_LINK_STATE << 8);
    be2_cq_post(s, s->mccq.peer, e);
}

/* ---- the function's state ------------------------------------------------ */

/* What a function reset leaves: no queues, no SGL pages, no connections. */
static void be2_forget_all(Be2State *s)
{
    be2_ofl_reset(s);
    timer_del(s->eq_timer);
    memset(s->eq, 0, sizeof(s->eq));
    memset(s->cq, 0, sizeof(s->cq));
    memset(&s->mccq, 0, sizeof(s->mccq));
    memset(s->defq, 0, sizeof(s->defq));
    memset(s->wrbq, 0, sizeof(s->wrbq));
    memset(s->sgl_page, 0, sizeof(s->sgl_page));
    be2_intx_update(s);
}

/* ---- commands ----------------------------------------------------------- */

/* A command's request, answered in place; len bytes are the card's to use. */
typedef struct Be2Cmd {
    uint8_t *p;
    uint32_t len;
    uint32_t resp_len;
} Be2Cmd;

#define NEED(c, n) do {                                                     \
        if ((c)->len < (n)) {                                               \
            qemu_log_mask(LOG_GUEST_ERROR, "%s: command %u/%u: %u bytes, "  \
                          "needs %u\n", TYPE_BE2_ISCSI, (c)->p[1],          \
                          (c)->p[0], (c)->len, (unsigned)(n));              \
            return ST_BAD_LENGTH;                                           \
        }                                                                   \
        (c)->resp_len = (n);                                                \
    } while (0)

static uint32_t cmd_fw_config(Be2State *s, Be2Cmd *c)
{
    uint8_t *ulp0;

    NEED(c, 172);
    memset(c->p + 16, 0, 172 - 16);
    stl_le_p(c->p + 24, 0);                 /* physical port */
    stl_le_p(c->p + 28, 0x10);              /* function mode: initiator */
    ulp0 = c->p + 32;
    stl_le_p(ulp0 + 0, 0x10);               /* iSCSI initiator on ULP 0 */
    stl_le_p(ulp0 + 12, 0);                 /* first CID */
    stl_le_p(ulp0 + 16, BE2_CIDS);
    stl_le_p(ulp0 + 44, 0);                 /* first ICD */
    stl_le_p(ulp0 + 48, BE2_ICDS);
    return ST_OK;
}

static void put_str(uint8_t *dst, const char *str, size_t size)
{
    memset(dst, 0, size);
    memcpy(dst, str, MIN(strlen(str), size - 1));
}

static uint32_t cmd_cntl_attributes(Be2State *s, Be2Cmd *c)
{
    uint8_t *a;

    NEED(c, 556);
    memset(c->p + 16, 0, 556 - 16);
    a = c->p + 16;
    put_str(a + 0, FW_VERSION, 32);             /* flash ROM */
    put_str(a + 32, "Emulex", 32);
    put_str(a + 96, "BE2-ISCSI-MODEL", 32);     /* model number */
    put_str(a + 128, "BladeEngine 2 iSCSI function", 64);
    put_str(a + 192, "BE2MODEL0001", 32);       /* serial number */
    put_str(a + 256, FW_VERSION, 32);           /* firmware */
    put_str(a + 384, FW_VERSION, 32);           /* firmware on flash */
    a[439] = 1;                                 /* ports */
    stw_le_p(a + 500, VENDOR_SERVERENGINES);
    stw_le_p(a + 502, s->devid);
    return ST_OK;
}

static int free_slot(const Be2Queue *q, int n)
{
    int i;

    for (i = 0; i < n; i++) {
        if (!q[i].live) {
            return i;
        }
    }
    return -1;
}

static uint32_t cmd_eq_create(Be2State *s, Be2Cmd *c)
{
    uint32_t dw0, dw1;
    int i;

    NEED(c, 100);
    dw0 = ldl_le_p(c->p + 20);
    dw1 = ldl_le_p(c->p + 24);
    i = free_slot(s->eq, BE2_MAX_EQ);
    if (i < 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: no event queue left\n",
                      TYPE_BE2_ISCSI);
        return ST_FAILED;
    }
    if (((dw1 >> 26) & 7) > 4 ||
        !q_setup(&s->eq[i], c->p + 36, lduw_le_p(c->p + 16), 8,
                 256u << ((dw1 >> 26) & 7), dw0 & (1u << 31) ? 16 : 4)) {
        return ST_ILLEGAL_FIELD;
    }
    s->eq[i].id = i;
    s->eq[i].armed = dw1 & (1u << 31);
    s->eq[i].delay_mult = (ldl_le_p(c->p + 28) >> 13) & 0x3ff;
    stw_le_p(c->p + 16, i);
    c->resp_len = 20;
    return ST_OK;
}

/* New delays for n EQs: (EQ id, phase, multiplier) each; all or none. */
static uint32_t cmd_eq_delay(Be2State *s, const uint8_t *e, uint32_t n)
{
    uint32_t i, id, mult;

    for (i = 0; i < n; i++) {
        id = ldl_le_p(e + 12 * i);
        mult = ldl_le_p(e + 12 * i + 8);
        if (id >= BE2_MAX_EQ || !s->eq[id].live || mult > 0x3ff) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: delay %u for event queue "
                          "%u\n", TYPE_BE2_ISCSI, mult, id);
            return ST_ILLEGAL_FIELD;
        }
    }
    for (i = 0; i < n; i++) {
        id = ldl_le_p(e + 12 * i);
        s->eq[id].delay_mult = ldl_le_p(e + 12 * i + 8);
        be2_eq_kick(s, id);
    }
    return ST_OK;
}

static uint32_t cmd_cq_create(Be2State *s, Be2Cmd *c)
{
    uint32_t dw0, dw1;
    unsigned eq;
    int i;

    NEED(c, 68);
    dw0 = ldl_le_p(c->p + 20);
    dw1 = ldl_le_p(c->p + 24);
    eq = (dw1 >> 22) & 0xff;
    i = free_slot(s->cq, BE2_MAX_CQ);
    if (i < 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: no completion queue left\n",
                      TYPE_BE2_ISCSI);
        return ST_FAILED;
    }
    if (eq >= BE2_MAX_EQ || !s->eq[eq].live) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: completion queue on event queue "
                      "%u, which does not exist\n", TYPE_BE2_ISCSI, eq);
        return ST_ILLEGAL_FIELD;
    }
    if (!q_setup(&s->cq[i], c->p + 36, lduw_le_p(c->p + 16), 4,
                 256u << ((dw0 >> 27) & 3), 16)) {
        return ST_ILLEGAL_FIELD;
    }
    s->cq[i].id = i;
    s->cq[i].peer = eq;
    s->cq[i].armed = dw1 & (1u << 31);
    stw_le_p(c->p + 16, i);
    c->resp_len = 20;
    return ST_OK;
}

static uint32_t cmd_mcc_create(Be2State *s, Be2Cmd *c)
{
    uint32_t dw0;
    unsigned order, cq;

    NEED(c, 104);
    dw0 = ldl_le_p(c->p + 24);
    order = (dw0 >> 16) & 0xf;
    cq = (dw0 >> 22) & 0x3ff;
    if (s->mccq.live) {
        return ST_FAILED;
    }
    if (cq >= BE2_MAX_CQ || !s->cq[cq].live) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: MCC queue on completion queue "
                      "%u, which does not exist\n", TYPE_BE2_ISCSI, cq);
        return ST_ILLEGAL_FIELD;
    }
    if (!q_setup(&s->mccq, c->p + 40, lduw_le_p(c->p + 16), 8,
                 order ? 1u << (order - 1) : 32768, WRB_BYTES)) {
        return ST_ILLEGAL_FIELD;
    }
    s->mccq.peer = cq;
    stw_le_p(c->p + 16, 0);
    c->resp_len = 20;
    /* the port is plugged in: say so, as the firmware does on start */
    be2_link_event(s);
    return ST_OK;
}

static uint32_t cmd_destroy(Be2State *s, Be2Cmd *c, Be2Queue *q, int n,
                            const char *what)
{
    unsigned id;

    NEED(c, 20);
    id = lduw_le_p(c->p + 16);
    if (id >= n || !q[id].live) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: destroy of %s %u, which does "
                      "not exist\n", TYPE_BE2_ISCSI, what, id);
        return ST_ILLEGAL_FIELD;
    }
    memset(&q[id], 0, sizeof(q[id]));
    c->resp_len = 16;
    be2_intx_update(s);
    return ST_OK;
}

static uint32_t cmd_sgl_post(Be2State *s, Be2Cmd *c)
{
    unsigned n, first, i;

    NEED(c, 232);
    n = lduw_le_p(c->p + 16);
    first = lduw_le_p(c->p + 18);
    if (n == 0xff) {
        n = 1;
    }
    if (!n || n > 26 || first + n > BE2_SGL_PAGES) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: SGL pages %u..%u of %u\n",
                      TYPE_BE2_ISCSI, first, first + n, BE2_SGL_PAGES);
        return ST_ILLEGAL_FIELD;
    }
    for (i = 0; i < n; i++) {
        uint64_t pa = ld_pa(c->p + 24 + 8 * i);

        if (!pa || (pa & 0xfff)) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: SGL page at 0x%" PRIx64
                          " is not a page\n", TYPE_BE2_ISCSI, pa);
            return ST_ILLEGAL_FIELD;
        }
        s->sgl_page[first + i] = pa;
    }
    c->resp_len = 16;
    return ST_OK;
}

static uint32_t cmd_defq_create(Be2State *s, Be2Cmd *c)
{
    uint32_t dw0, dw2;
    unsigned order, cq, bufsize;
    int i;

    NEED(c, 100);
    dw0 = ldl_le_p(c->p + 20);
    dw2 = ldl_le_p(c->p + 28);
    order = (dw0 >> 16) & 0xf;
    bufsize = dw2 & 0xffff;
    cq = (dw2 >> 16) & 0x3ff;
    i = free_slot(s->defq, 2);
    if (i < 0) {
        return ST_FAILED;
    }
    if (cq >= BE2_MAX_CQ || !s->cq[cq].live || !bufsize ||
        (i == 0 && bufsize < 48)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: default PDU ring of %u-byte "
                      "buffers on completion queue %u\n", TYPE_BE2_ISCSI,
                      bufsize, cq);
        return ST_ILLEGAL_FIELD;
    }
    if (!q_setup(&s->defq[i], c->p + 36, lduw_le_p(c->p + 16), 8,
                 order ? 1u << (order - 1) : 32768, 8)) {
        return ST_ILLEGAL_FIELD;
    }
    s->defq[i].id = i;
    s->defq[i].peer = cq;
    stw_le_p(c->p + 16, i);
    c->p[19] = 0;
    stl_le_p(c->p + 20, DB_RXULP0);
    stw_le_p(c->p + 24, 0);
    stw_le_p(c->p + 26, 0);
    c->resp_len = 28;
    return ST_OK;
}

static uint32_t cmd_wrbq_create(Be2State *s, Be2Cmd *c)
{
    unsigned n;
    int i;

    NEED(c, 84);
    n = lduw_le_p(c->p + 16);
    i = free_slot(s->wrbq, BE2_CIDS);
    if (i < 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: no connection left for a WRB "
                      "queue\n", TYPE_BE2_ISCSI);
        return ST_FAILED;
    }
    if (!q_setup(&s->wrbq[i], c->p + 20, n, 8, n * 4096 / 64, 64)) {
        return ST_ILLEGAL_FIELD;
    }
    s->wrbq[i].id = i;
    stw_le_p(c->p + 16, i);
    c->p[19] = 0;
    stl_le_p(c->p + 20, DB_TXULP0);
    stw_le_p(c->p + 24, 0);
    stw_le_p(c->p + 26, 0);
    c->resp_len = 28;
    return ST_OK;
}

/* ---- interface configuration ---- */

static bool mask4_ok(const uint8_t *m)
{
    uint32_t v = ldl_be_p(m);

    /* contiguous ones from the top; /1 to /32 */
    return v && !(~v & (~v + 1));
}

static bool ip4_host_ok(const uint8_t *a)
{
    /* not 0/8, loopback, multicast, reserved or broadcast */
    return a[0] != 0 && a[0] != 127 && a[0] < 224;
}

static uint32_t cmd_if_info(Be2State *s, Be2Cmd *c)
{
    uint32_t handle, type;

    NEED(c, 72);
    handle = ldl_le_p(c->p + 16);
    type = ldl_le_p(c->p + 20);
    if (handle != IF_HANDLE || (type != IP_V4 && type != IP_V6)) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: interface %u, address type %u\n",
                      TYPE_BE2_ISCSI, handle, type);
        return ST_ILLEGAL_FIELD;
    }
    memset(c->p + 16, 0, 72 - 16);
    stl_le_p(c->p + 16, IF_HANDLE);
    stl_le_p(c->p + 20, s->vlan);
    stl_le_p(c->p + 24, 1);
    stl_le_p(c->p + 28, type == IP_V4 && s->dhcp);
    stw_le_p(c->p + 32, 40);
    c->p[34] = type;
    if (type == IP_V4) {
        memcpy(c->p + 36, s->ip4, 4);
        memcpy(c->p + 52, s->mask4, 4);
    } else {
        memcpy(c->p + 36, s->ip6, 16);
        c->p[35] = buffer_is_zero(s->ip6, 16) ? 0 : 64;
    }
    return ST_OK;
}

static uint32_t cmd_modify_ip(Be2State *s, Be2Cmd *c)
{
    uint32_t action, handle;
    uint8_t type;
    const uint8_t *addr, *mask;
    uint32_t st = ST_OK;

    NEED(c, 72);
    action = ldl_le_p(c->p + 20);
    handle = ldl_le_p(c->p + 24);
    type = c->p[30];
    addr = c->p + 32;
    mask = c->p + 48;
    if (ldl_le_p(c->p + 16) != 1 || handle != IF_HANDLE ||
        (type != IP_V4 && type != IP_V6) || (action != 1 && action != 2)) {
        st = ST_ILLEGAL_FIELD;
    } else if (action == 2) {
        /* delete: whatever the interface has of that type goes */
        if (type == IP_V4) {
            memset(s->ip4, 0, 4);
            memset(s->mask4, 0, 4);
        } else {
            memset(s->ip6, 0, 16);
        }
    } else if (type == IP_V4) {
        /* no mask given: a /24 */
        static const uint8_t c24[4] = { 255, 255, 255, 0 };
        bool no_mask = buffer_is_zero(mask, 4);

        if (!ip4_host_ok(addr) || (!no_mask && !mask4_ok(mask)) ||
            !buffer_is_zero(s->ip4, 4)) {
            st = ST_ILLEGAL_FIELD;
        } else {
            memcpy(s->ip4, addr, 4);
            memcpy(s->mask4, no_mask ? c24 : mask, 4);
            s->dhcp = false;
        }
    } else {
        if (buffer_is_zero(addr, 16) || addr[0] == 0xff ||
            !buffer_is_zero(s->ip6, 16)) {
            st = ST_ILLEGAL_FIELD;
        } else {
            memcpy(s->ip6, addr, 16);
        }
    }
    if (st != ST_OK) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: refused address change (action "
                      "%u, type %u)\n", TYPE_BE2_ISCSI, action, type);
    }
    stl_le_p(c->p + 68, st);
    return st;
}

static uint32_t cmd_gateway(Be2State *s, Be2Cmd *c, bool modify)
{
    if (!modify) {
        uint32_t type;

        NEED(c, 40);
        type = ldl_le_p(c->p + 16);
        if (type != IP_V4) {
            return ST_ILLEGAL_REQUEST;
        }
        memset(c->p + 16, 0, 40 - 16);
        stw_le_p(c->p + 16, 24);
        c->p[19] = IP_V4;
        memcpy(c->p + 20, s->gw4, 4);
        return ST_OK;
    }
    NEED(c, 44);
    if (c->p[23] != IP_V4) {
        return ST_ILLEGAL_REQUEST;
    }
    switch (ldl_le_p(c->p + 16)) {
    case 1:
        if (!ip4_host_ok(c->p + 24) || !buffer_is_zero(s->gw4, 4)) {
            return ST_ILLEGAL_FIELD;
        }
        memcpy(s->gw4, c->p + 24, 4);
        return ST_OK;
    case 2:
        memset(s->gw4, 0, 4);
        return ST_OK;
    }
    return ST_ILLEGAL_FIELD;
}

static uint32_t cmd_dhcp(Be2State *s, Be2Cmd *c, bool on)
{
    NEED(c, on ? 32 : 24);
    if (ldl_le_p(c->p + 16) != IF_HANDLE) {
        return ST_ILLEGAL_FIELD;
    }
    if (ldl_le_p(c->p + 20) != IP_V4) {
        return ST_ILLEGAL_REQUEST;
    }
    if (on) {
        /* the lease the model's own segment gives */
        memcpy(s->ip4, dhcp_ip, 4);
        memcpy(s->mask4, dhcp_mask, 4);
        memcpy(s->gw4, dhcp_gw, 4);
    } else if (s->dhcp) {
        memset(s->ip4, 0, 4);
        memset(s->mask4, 0, 4);
        memset(s->gw4, 0, 4);
    }
    s->dhcp = on;
    return ST_OK;
}

static uint32_t cmd_set_vlan(Be2State *s, Be2Cmd *c)
{
    uint32_t v;

    NEED(c, 24);
    v = ldl_le_p(c->p + 20);
    if (ldl_le_p(c->p + 16) != IF_HANDLE ||
        (v != VLAN_OFF && ((v & 0xfff) == 0xfff || (v & 0x1000) ||
                           v > 0xffff))) {
        return ST_ILLEGAL_FIELD;
    }
    s->vlan = v;
    return ST_OK;
}

static void initiator_name(Be2State *s, char *buf, size_t size)
{
    snprintf(buf, size, "iqn.2001-04.com.serverengines:be2-%02x%02x%02x%02x"
             "%02x%02x", s->mac.a[0], s->mac.a[1], s->mac.a[2], s->mac.a[3],
             s->mac.a[4], s->mac.a[5]);
}

static uint32_t cmd_nic_config(Be2State *s, Be2Cmd *c)
{
    NEED(c, 44);
    memset(c->p + 16, 0, 44 - 16);
    stl_le_p(c->p + 16, 1);                 /* ports */
    stl_le_p(c->p + 20, s->link_down ? 0 : 10000);
    stl_le_p(c->p + 24, 10000);
    stl_le_p(c->p + 28, !s->link_down);
    stl_le_p(c->p + 32, 9000);
    stw_le_p(c->p + 36, 6);
    memcpy(c->p + 38, s->mac.a, 6);
    return ST_OK;
}

static uint32_t cmd_hba_name(Be2State *s, Be2Cmd *c)
{
    char name[224];

    NEED(c, 276);
    memset(c->p + 16, 0, 276 - 16);
    initiator_name(s, name, sizeof(name));
    put_str(c->p + 20, name, 224);
    return ST_OK;
}

static uint32_t be2_common(Be2State *s, Be2Cmd *c)
{
    switch (c->p[0]) {
    case OP_FUNCTION_RESET:
        be2_forget_all(s);
        c->resp_len = 16;
        return ST_OK;
    case OP_FW_CONFIG:
        return cmd_fw_config(s, c);
    case OP_PORT_NAME:
        NEED(c, 20);
        stl_le_p(c->p + 16, '0');
        return ST_OK;
    case OP_SET_FEATURES:
        /*
         * The one feature asked for is recovery from unrecoverable
         * errors (0x10): granted, with the card back 2 s after one.
         */
        NEED(c, 32);
        if (ldl_le_p(c->p + 16) != 0x10) {
            return ST_ILLEGAL_FIELD;
        }
        stl_le_p(c->p + 24, 1);
        stw_le_p(c->p + 28, 2000);
        stw_le_p(c->p + 30, 0);
        c->resp_len = 32;
        return ST_OK;
    case OP_EQ_CREATE:
        return cmd_eq_create(s, c);
    case OP_CQ_CREATE:
        return cmd_cq_create(s, c);
    case OP_MCC_CREATE_EXT:
        return cmd_mcc_create(s, c);
    case OP_CNTL_ATTRIBUTES:
        return cmd_cntl_attributes(s, c);
    case OP_TEMPLATE_ADD:
        /* the header templates are the offload engine's business */
        NEED(c, 172);
        return ST_OK;
    case OP_TEMPLATE_REMOVE:
        NEED(c, 20);
        return ST_OK;
    case OP_EQ_DELAY: {
        uint32_t n;

        NEED(c, 20);
        n = ldl_le_p(c->p + 16);
        if (n > BE2_MAX_EQ) {
            return ST_ILLEGAL_FIELD;
        }
        NEED(c, 20 + 12 * n);
        return cmd_eq_delay(s, c->p + 20, n);
    }
    case OP_TCP_UPLOAD:
        NEED(c, 24);
        return be2_ofl_upload(s, c->p);
    case OP_EQ_DESTROY:
        return cmd_destroy(s, c, s->eq, BE2_MAX_EQ, "event queue");
    case OP_CQ_DESTROY:
        return cmd_destroy(s, c, s->cq, BE2_MAX_CQ, "completion queue");
    case OP_MCC_DESTROY:
        return cmd_destroy(s, c, &s->mccq, 1, "MCC queue");
    }
    return ST_ILLEGAL_REQUEST;
}

static uint32_t be2_iscsi(Be2State *s, Be2Cmd *c)
{
    switch (c->p[0]) {
    case OP_SGL_POST:
        return cmd_sgl_post(s, c);
    case OP_CONNECT_OFFLOAD:
        NEED(c, 64);
        c->resp_len = 24;
        return be2_ofl_connect(s, c->p, c->len);
    case OP_INVALIDATE_ICDS:
        NEED(c, 540);
        return be2_ofl_invalidate_icds(s, c->p, c->len);
    case OP_SGL_REMOVE:
        memset(s->sgl_page, 0, sizeof(s->sgl_page));
        c->resp_len = 16;
        return ST_OK;
    case OP_DEFQ_CREATE:
        return cmd_defq_create(s, c);
    case OP_DEFQ_DESTROY:
        return cmd_destroy(s, c, s->defq, 2, "default PDU ring");
    case OP_WRBQ_CREATE:
        return cmd_wrbq_create(s, c);
    case OP_WRBQ_DESTROY:
        return cmd_destroy(s, c, s->wrbq, BE2_CIDS, "WRB queue");
    case OP_ISCSI_CLEANUP:
        NEED(c, 20);
        return ST_OK;
    case OP_NIC_CONFIG:
        return cmd_nic_config(s, c);
    case OP_IF_HANDLES:
        NEED(c, 24);
        stl_le_p(c->p + 16, 1);
        stl_le_p(c->p + 20, IF_HANDLE);
        return ST_OK;
    case OP_IF_INFO:
        return cmd_if_info(s, c);
    case OP_MODIFY_IP:
        return cmd_modify_ip(s, c);
    case OP_DHCP_ON:
        return cmd_dhcp(s, c, true);
    case OP_DHCP_OFF:
        return cmd_dhcp(s, c, false);
    case OP_GET_GATEWAY:
        return cmd_gateway(s, c, false);
    case OP_MODIFY_GATEWAY:
        return cmd_gateway(s, c, true);
    case OP_SET_VLAN:
        return cmd_set_vlan(s, c);
    }
    return ST_ILLEGAL_REQUEST;
}

static uint32_t be2_iscsi_ini(Be2State *s, Be2Cmd *c)
{
    switch (c->p[0]) {
    case OP_HBA_NAME:
        return cmd_hba_name(s, c);
    case OP_INVALIDATE_CONN:
        NEED(c, 28);
        c->resp_len = 24;
        return be2_ofl_invalidate(s, c->p);
    case OP_BOOT_TARGET:
        /* no boot target is configured on this card */
        NEED(c, 24);
        stl_le_p(c->p + 16, 0);
        stl_le_p(c->p + 20, 0xffffffff);
        return ST_OK;
    }
    return ST_ILLEGAL_REQUEST;
}

/* Answer the command at p in place; its completion status. */
static uint32_t be2_command(Be2State *s, uint8_t *p, uint32_t len)
{
    Be2Cmd c = { .p = p, .len = len, .resp_len = 16 };
    uint8_t op = p[0], sub = p[1];
    uint32_t st;

    switch (sub) {
    case SUB_COMMON:
        st = be2_common(s, &c);
        break;
    case SUB_ISCSI:
        st = be2_iscsi(s, &c);
        break;
    case SUB_ISCSI_INI:
        st = be2_iscsi_ini(s, &c);
        break;
    default:
        st = ST_ILLEGAL_REQUEST;
    }
    if (st == ST_ILLEGAL_REQUEST) {
        qemu_log_mask(LOG_UNIMP, "%s: command %u of subsystem %u is not "
                      "supported\n", TYPE_BE2_ISCSI, op, sub);
    }
    /*
     * The response header over the request header: opcode and subsystem
     * stay, then status, lengths.
     */
    stw_le_p(p + 2, 0);
    stl_le_p(p + 4, st);
    stl_le_p(p + 8, c.resp_len - 16);
    stl_le_p(p + 12, c.resp_len - 16);
    return st;
}

/*
 * Carry out the command a WRB (mailbox or MCC ring) holds: embedded in the
 * WRB, or in a host buffer its first SGE names.  The response goes where
 * the request was.
 */
static uint32_t be2_wrb(Be2State *s, uint8_t *wrb)
{
    uint32_t dw0 = ldl_le_p(wrb);
    uint32_t plen = ldl_le_p(wrb + 4);
    uint64_t pa;
    uint32_t len, st;
    uint8_t *buf;

    if (dw0 & WRB_EMBEDDED) {
        /*
         * A length up to the whole WRB is taken (be2iscsi gives 256 for
         * SET_VLAN); the command has the embedded area either way.
         */
        if (plen > WRB_BYTES || plen < 16) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: embedded payload of %u "
                          "bytes\n", TYPE_BE2_ISCSI, plen);
            return ST_BAD_LENGTH;
        }
        return be2_command(s, wrb + WRB_PAYLOAD, WRB_PAYLOAD_MAX);
    }
    pa = ld_pa(wrb + WRB_PAYLOAD);
    len = ldl_le_p(wrb + WRB_PAYLOAD + 8);
    if (!((dw0 >> 3) & 0x1f) || len < 16 || len > CMD_BUF_MAX) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: command buffer of %u bytes in "
                      "%u SGEs\n", TYPE_BE2_ISCSI, len, (dw0 >> 3) & 0x1f);
        return ST_BAD_LENGTH;
    }
    buf = g_malloc(len);
    if (!be2_dma_read(s, pa, buf, len, "command")) {
        g_free(buf);
        return ST_FAILED;
    }
    st = be2_command(s, buf, len);
    be2_dma_write(s, pa, buf, len, "response");
    g_free(buf);
    return st;
}

static void be2_mailbox(Be2State *s, uint64_t pa)
{
    uint8_t mb[MBOX_BYTES];
    uint32_t st;

    /* the WRBs posted before the command, first */
    be2_ofl_run_doorbells(s);
    if (!be2_dma_read(s, pa, mb, sizeof(mb), "mailbox")) {
        return;
    }
    if (!memcmp(mb, mark_load, sizeof(mark_load)) ||
        !memcmp(mb, mark_unload, sizeof(mark_unload))) {
        st = ST_OK;
    } else {
        st = be2_wrb(s, mb);
    }
    stl_le_p(mb + MBOX_COMPL, st);
    stl_le_p(mb + MBOX_COMPL + 4, ldl_le_p(mb + 8));
    stl_le_p(mb + MBOX_COMPL + 8, ldl_le_p(mb + 12));
    stl_le_p(mb + MBOX_COMPL + 12, MCQE_VALID | MCQE_COMPLETED);
    be2_dma_write(s, pa, mb, sizeof(mb), "mailbox");
}

/* The host posted n WRBs on the MCC ring. */
static void be2_mcc_doorbell(Be2State *s, uint32_t v)
{
    Be2Queue *q = &s->mccq;
    unsigned n = (v >> 16) & 0x3fff;
    uint8_t wrb[WRB_BYTES], cqe[16];
    uint64_t pa;
    uint32_t st;

    if (!q->live || (v & 0xffff) != q->id) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: doorbell of MCC queue %u, which "
                      "does not exist\n", TYPE_BE2_ISCSI, v & 0xffff);
        return;
    }
    if (n > q->entries) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %u WRBs posted on an MCC ring of "
                      "%u\n", TYPE_BE2_ISCSI, n, q->entries);
        return;
    }
    be2_ofl_run_doorbells(s);
    while (n--) {
        pa = be2_q_entry(q, q->head);
        q->head = (q->head + 1) % q->entries;
        if (!be2_dma_read(s, pa, wrb, sizeof(wrb), "MCC WRB")) {
            continue;
        }
        st = be2_wrb(s, wrb);
        if (ldl_le_p(wrb) & WRB_EMBEDDED) {
            be2_dma_write(s, pa, wrb, sizeof(wrb), "MCC WRB");
        }
        stl_le_p(cqe, st);
        stl_le_p(cqe + 4, ldl_le_p(wrb + 8));
        stl_le_p(cqe + 8, ldl_le_p(wrb + 12));
        stl_le_p(cqe + 12, MCQE_VALID | MCQE_COMPLETED);
        be2_cq_post(s, q->peer, cqe);
    }
}

/* ---- register windows ---- */

static uint64_t be2_cfg_read(void *opaque, hwaddr addr, unsigned size)
{
    Be2State *s = opaque;

    if (addr == CFG_MEMBAR_CTRL) {
        return s->membar_ctrl;
    }
    return 0;
}

static void be2_cfg_write(void *opaque, hwaddr addr, uint64_t val,
                          unsigned size)
{
    Be2State *s = opaque;
    int i;

    if (addr != CFG_MEMBAR_CTRL) {
        qemu_log_mask(LOG_UNIMP, "%s: write of 0x%" PRIx64 " to config "
                      "register 0x%" HWADDR_PRIx "\n", TYPE_BE2_ISCSI, val,
                      addr);
        return;
    }
    s->membar_ctrl = val;
    for (i = 0; i < BE2_MAX_EQ; i++) {
        be2_eq_kick(s, i);
    }
    be2_intx_update(s);
}

static uint64_t be2_csr_read(void *opaque, hwaddr addr, unsigned size)
{
    Be2State *s = opaque;
    uint32_t isr = 0;
    int i;

    if (addr == CSR_POST_STAGE) {
        return POST_ARMFW_READY;
    }
    if (addr == CSR_ISR(PCI_FUNC(PCI_DEVICE(s)->devfn))) {
        for (i = 0; i < BE2_MAX_EQ; i++) {
            if (s->eq[i].live && s->eq[i].latched) {
                isr |= 1u << i;
            }
        }
        return isr;
    }
    return 0;
}

static void be2_csr_write(void *opaque, hwaddr addr, uint64_t val,
                          unsigned size)
{
    qemu_log_mask(LOG_UNIMP, "%s: write of 0x%" PRIx64 " to CSR 0x%"
                  HWADDR_PRIx "\n", TYPE_BE2_ISCSI, val, addr);
}

static uint64_t be2_db_read(void *opaque, hwaddr addr, unsigned size)
{
    /* the mailbox is always ready: commands finish within the write */
    return addr == DB_MBOX ? MBOX_READY : 0;
}

static void be2_db_write(void *opaque, hwaddr addr, uint64_t val64,
                         unsigned size)
{
    Be2State *s = opaque;
    uint32_t val = val64;

    switch (addr) {
    case DB_MBOX:
        if (val & MBOX_HI) {
            s->mbox_hi = val & ~3u;
        } else {
            be2_mailbox(s, (uint64_t)s->mbox_hi << 32 |
                           (uint64_t)(val & ~3u) << 2);
        }
        break;
    case DB_MCCQ:
        be2_mcc_doorbell(s, val);
        break;
    case DB_EQ_CQ:
        be2_eq_cq_doorbell(s, val);
        break;
    case DB_RXULP0: {
        unsigned id = val & 0x3fff;

        if (id >= 2 || !s->defq[id].live) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: doorbell of default PDU ring "
                          "%u, which does not exist\n", TYPE_BE2_ISCSI, id);
            break;
        }
        be2_ofl_defq_posted(s, id, (val >> 16) & 0x3fff);
        break;
    }
    case DB_TXULP0:
        be2_ofl_wrb_doorbell(s, val);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write of 0x%x to doorbell 0x%"
                      HWADDR_PRIx "\n", TYPE_BE2_ISCSI, val, addr);
    }
}

static const MemoryRegionOps be2_cfg_ops = {
    .read = be2_cfg_read,
    .write = be2_cfg_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

static const MemoryRegionOps be2_csr_ops = {
    .read = be2_csr_read,
    .write = be2_csr_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

static const MemoryRegionOps be2_db_ops = {
    .read = be2_db_read,
    .write = be2_db_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

/* ---- device ------------------------------------------------------------ */

static void be2_reset(DeviceState *dev)
{
    Be2State *s = BE2_ISCSI(dev);

    s->membar_ctrl = 0;
    s->mbox_hi = 0;
    be2_forget_all(s);
    pci_set_irq(PCI_DEVICE(s), 0);
}

/*
 * The iSCSI target the offload engine will connect to, whatever portal the
 * guest names: host:port on the loopback only, 127.0.0.1:3260 if unset.
 */
static bool be2_target_ok(Be2State *s, Error **errp)
{
    InetSocketAddress addr = { 0 };
    bool ok;

    if (!s->target) {
        s->target = g_strdup("127.0.0.1:3260");
    }
    if (inet_parse(&addr, s->target, errp)) {
        return false;
    }
    ok = !strcmp(addr.host, "127.0.0.1") || !strcmp(addr.host, "::1");
    if (!ok) {
        error_setg(errp, "%s: target %s is not on the loopback (127.0.0.1 "
                   "or ::1)", TYPE_BE2_ISCSI, s->target);
    }
    g_free(addr.host);
    g_free(addr.port);
    return ok;
}

static void be2_realize(PCIDevice *pci, Error **errp)
{
    Be2State *s = BE2_ISCSI(pci);
    int i;

    if (s->devid != 0x0212 && s->devid != 0x0222) {
        error_setg(errp, "%s: device-id must be 0x212 (BE2) or 0x222 (BE3)",
                   TYPE_BE2_ISCSI);
        return;
    }
    if (!be2_target_ok(s, errp)) {
        return;
    }
    pci_config_set_device_id(pci->config, s->devid);
    be2_ofl_realize(s);
    s->eq_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, be2_eq_timer, s);
    qemu_macaddr_default_if_unset(&s->mac);
    s->vlan = VLAN_OFF;

    pci->config[PCI_INTERRUPT_PIN] = 1;
    memory_region_init_io(&s->cfg_bar, OBJECT(s), &be2_cfg_ops, s,
                          "be2-iscsi-pcicfg", CFG_BAR_SIZE);
    memory_region_init_io(&s->csr_bar, OBJECT(s), &be2_csr_ops, s,
                          "be2-iscsi-csr", CSR_BAR_SIZE);
    memory_region_init_io(&s->db_bar, OBJECT(s), &be2_db_ops, s,
                          "be2-iscsi-doorbells", DB_BAR_SIZE);
    pci_register_bar(pci, 1, PCI_BASE_ADDRESS_SPACE_MEMORY, &s->cfg_bar);
    pci_register_bar(pci, 2, PCI_BASE_ADDRESS_SPACE_MEMORY, &s->csr_bar);
    pci_register_bar(pci, 4, PCI_BASE_ADDRESS_SPACE_MEMORY, &s->db_bar);
    if (s->msix) {
        if (msix_init_exclusive_bar(pci, BE2_MSIX_VECTORS, 0, errp)) {
            return;
        }
        for (i = 0; i < BE2_MSIX_VECTORS; i++) {
            msix_vector_use(pci, i);
        }
    }
}

static void be2_exit(PCIDevice *pci)
{
    Be2State *s = BE2_ISCSI(pci);

    be2_ofl_unrealize(s);
    timer_free(s->eq_timer);
    s->eq_timer = NULL;
    if (s->fuzz_rand) {
        g_rand_free(s->fuzz_rand);
        s->fuzz_rand = NULL;
    }
    if (msix_present(pci)) {
        msix_unuse_all_vectors(pci);
        msix_uninit_exclusive_bar(pci);
    }
}

static Property be2_props[] = {
    DEFINE_PROP_MACADDR("mac", Be2State, mac),
    DEFINE_PROP_STRING("target", Be2State, target),  /* see be2_realize */
    DEFINE_PROP_UINT16("device-id", Be2State, devid, 0x0212),
    DEFINE_PROP_BOOL("msix", Be2State, msix, true),
    DEFINE_PROP_END_OF_LIST(),
};

/*
 * Faults, set at run time with qom-set on the device:
 *   link-down      the port's cable is pulled (true) or plugged back
 */
static bool get_link_down(Object *obj, Error **errp)
{
    return BE2_ISCSI(obj)->link_down;
}

static void set_link_down(Object *obj, bool v, Error **errp)
{
    Be2State *s = BE2_ISCSI(obj);

    if (s->link_down != v) {
        s->link_down = v;
        be2_link_event(s);
    }
}

/*
 *   fuzz-completions  this many hostile entries go onto the completion
 *                     queues, one ahead of each real entry; reads back
 *                     how many are still to go
 *   fuzz-seed         the seed of their random contents (set before)
 */
static void get_fuzz(Object *obj, Visitor *v, const char *name, void *opaque,
                     Error **errp)
{
    Be2State *s = BE2_ISCSI(obj);
    uint32_t val = strcmp(name, "fuzz-seed") ? s->fuzz_left : s->fuzz_seed;

    visit_type_uint32(v, name, &val, errp);
}

static void set_fuzz(Object *obj, Visitor *v, const char *name, void *opaque,
                     Error **errp)
{
    Be2State *s = BE2_ISCSI(obj);
    uint32_t val;

    if (!visit_type_uint32(v, name, &val, errp)) {
        return;
    }
    if (!strcmp(name, "fuzz-seed")) {
        s->fuzz_seed = val;
        if (s->fuzz_rand) {
            g_rand_set_seed(s->fuzz_rand, val);
        }
    } else {
        s->fuzz_left = val;
    }
}

static const VMStateDescription be2_vmstate = {
    .name = TYPE_BE2_ISCSI,
    .unmigratable = 1,
};

static void be2_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *pc = PCI_DEVICE_CLASS(klass);

    pc->vendor_id = VENDOR_SERVERENGINES;
    pc->device_id = 0x0212;
    pc->class_id = PCI_CLASS_NETWORK_OTHER;
    pc->revision = 1;
    pc->realize = be2_realize;
    pc->exit = be2_exit;
    dc->desc = "ServerEngines BladeEngine 2 10Gb iSCSI function";
    dc->reset = be2_reset;
    dc->vmsd = &be2_vmstate;
    device_class_set_props(dc, be2_props);
    object_class_property_add_bool(klass, "link-down", get_link_down,
                                   set_link_down);
    object_class_property_add(klass, "fuzz-completions", "uint32", get_fuzz,
                              set_fuzz, NULL, NULL);
    object_class_property_add(klass, "fuzz-seed", "uint32", get_fuzz,
                              set_fuzz, NULL, NULL);
    be2_ofl_class_init(klass);
    set_bit(DEVICE_CATEGORY_STORAGE, dc->categories);
}

static const TypeInfo be2_type = {
    .name = TYPE_BE2_ISCSI,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(Be2State),
    .class_init = be2_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

static void be2_register_types(void)
{
    type_register_static(&be2_type);
}

type_init(be2_register_types)
