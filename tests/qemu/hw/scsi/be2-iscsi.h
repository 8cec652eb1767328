/*
 * ServerEngines BladeEngine 2 iSCSI function (PCI 19a2:0212) model: what
 * the card part and its iSCSI offload engine share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_SCSI_BE2_ISCSI_H
#define HW_SCSI_BE2_ISCSI_H

#include "hw/pci/pci.h"
#include "net/net.h"
#include "qom/object.h"

#define TYPE_BE2_ISCSI "be2-iscsi"
OBJECT_DECLARE_SIMPLE_TYPE(Be2State, BE2_ISCSI)

#define BE2_MAX_EQ          8
#define BE2_MAX_CQ          16
#define BE2_MAX_PAGES       8
#define BE2_CIDS            64          /* connections of the one iSCSI ULP */
#define BE2_ICDS            1024        /* I/O context descriptors */
#define BE2_SGL_PAGES       (BE2_ICDS * 512 / 4096)
#define BE2_MSIX_VECTORS    8

/* completion status of a command */
#define ST_OK               0
#define ST_FAILED           1
#define ST_ILLEGAL_REQUEST  2
#define ST_ILLEGAL_FIELD    3
#define ST_BAD_LENGTH       0x74

typedef struct Be2Conn Be2Conn;

/*
 * A queue the host made in its memory: event, completion, MCC, default
 * PDU and WRB queues are all pages of fixed-size entries.
 */
typedef struct Be2Queue {
    bool live;
    uint16_t id;
    uint32_t entries;
    uint32_t esize;
    unsigned npages;
    uint64_t page[BE2_MAX_PAGES];
    uint32_t head;              /* next entry the card writes or reads */
    uint32_t pending;           /* EQ/CQ: written, not yet popped by host */
    bool armed;
    int peer;                   /* CQ: its EQ index; MCCQ: its CQ index */
    bool latched;               /* EQ: interrupt raised, not yet cleared */
    uint32_t spent;             /* DEFQ: taken, not yet told to the host */
    uint32_t delay_mult;        /* EQ: interrupts at least this many */
                                /* BE2_EQ_DELAY_NS apart; 0: at once */
    int64_t irq_at;             /* EQ: when it last interrupted */
} Be2Queue;

#define BE2_EQ_DELAY_NS     1536
#define BE2_WRB_DB_SLOTS    1024

struct Be2State {
    PCIDevice parent_obj;

    MemoryRegion cfg_bar;       /* BAR1: memory view of config registers */
    MemoryRegion csr_bar;       /* BAR2: POST stage, interrupt status */
    MemoryRegion db_bar;        /* BAR4: doorbells and bootstrap mailbox */

    /* properties */
    MACAddr mac;
    char *target;               /* host:port of the real iSCSI target */
    uint16_t devid;
    bool msix;

    uint32_t membar_ctrl;       /* BAR1 0xfc: bit 29 host interrupt enable */
    uint32_t mbox_hi;

    Be2Queue eq[BE2_MAX_EQ];
    Be2Queue cq[BE2_MAX_CQ];
    Be2Queue mccq;
    Be2Queue defq[2];           /* default PDU header, data ring */
    Be2Queue wrbq[BE2_CIDS];
    uint64_t sgl_page[BE2_SGL_PAGES];

    /* the interface, as iscsiadm configured it */
    uint8_t ip4[4], mask4[4], gw4[4];
    uint8_t ip6[16];
    bool dhcp;
    uint32_t vlan;

    /* the offload engine: connections by CID */
    Be2Conn *conn[BE2_CIDS];
    uint32_t conn_handles;
    QEMUBH *ofl_bh;
    /* WRB doorbells the engine has not taken yet, oldest first */
    uint32_t wrb_db[BE2_WRB_DB_SLOTS];
    unsigned wrb_db_first, wrb_db_count;
    QEMUBH *wrb_bh;
    QEMUTimer *eq_timer;        /* the next held EQ interrupt is due */

    /* faults */
    bool link_down;
    bool unreachable;
    uint32_t delay_ms;
    uint32_t drop_responses;
    uint32_t io_hang;           /* statuses of hang-lun held: BE2_HANG_* */
    uint32_t hang_lun;
    uint32_t fuzz_left;         /* hostile completions still to write */
    uint32_t fuzz_seed;
    GRand *fuzz_rand;
};

/* io-hang: what makes the hung LUN's statuses flow again */
enum { BE2_HANG_ABORT = 1, BE2_HANG_LUN, BE2_HANG_TARGET, BE2_HANG_SESSION };

/* be2-iscsi.c */
bool be2_dma_read(Be2State *s, uint64_t addr, void *buf, size_t len,
                  const char *what);
bool be2_dma_write(Be2State *s, uint64_t addr, const void *buf, size_t len,
                   const char *what);
uint64_t be2_q_entry(const Be2Queue *q, uint32_t idx);
bool be2_cq_post(Be2State *s, int i, const uint8_t *entry);
unsigned be2_cq_room(Be2State *s, int i);

/* be2-offload.c */
uint32_t be2_ofl_connect(Be2State *s, uint8_t *p, uint32_t len);
uint32_t be2_ofl_invalidate(Be2State *s, const uint8_t *p);
uint32_t be2_ofl_upload(Be2State *s, const uint8_t *p);
uint32_t be2_ofl_invalidate_icds(Be2State *s, const uint8_t *p, uint32_t len);
void be2_ofl_wrb_doorbell(Be2State *s, uint32_t v);
void be2_ofl_run_doorbells(Be2State *s);
void be2_ofl_defq_posted(Be2State *s, unsigned ring, unsigned count);
void be2_ofl_kick(Be2State *s);
void be2_ofl_fuzz_cqe(Be2State *s, GRand *r, uint8_t *e);
void be2_ofl_reset(Be2State *s);
void be2_ofl_realize(Be2State *s);
void be2_ofl_unrealize(Be2State *s);
void be2_ofl_class_init(ObjectClass *klass);

#endif
