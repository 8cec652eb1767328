/*
 * Brocade 825 Fibre Channel HBA (Crossbow ASIC) model: shared definitions
 * between the chip/firmware part and the emulated FC fabric.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_SCSI_BROCADE_CB_H
#define HW_SCSI_BROCADE_CB_H

#include "hw/pci/pci.h"
#include "hw/scsi/scsi.h"
#include "qom/object.h"
#include "qemu/queue.h"

#define TYPE_BROCADE_CB "brocade-825"
OBJECT_DECLARE_SIMPLE_TYPE(BcbState, BROCADE_CB)

/* Size of one message on the request and response rings. */
#define BCB_ELEM 128
/* Size of one message through the mailbox registers. */
#define BCB_MBOX_BYTES 32
#define BCB_MBOX_DEPTH 32

#define BCB_NQ 4            /* request/response ring pairs per function */
#define BCB_SMEM_SIZE (2 * 1024 * 1024)

/* A ring in guest memory, as the host described it in the config block. */
typedef struct BcbRing {
    uint64_t base;
    uint64_t shadow;        /* where the index the host reads is kept */
    uint32_t depth;
    uint32_t pi;
    uint32_t ci;
} BcbRing;

#define BCB_FCHS 24             /* FC frame header */
#define BCB_MAX_TARGETS 64
#define BCB_MAX_LOGINS 16

/* io-hang: the narrowest reset that makes a hung LUN answer again */
enum { BCB_HANG_ABORT = 1, BCB_HANG_LUN, BCB_HANG_TARGET, BCB_HANG_IOC };

/* An N_Port logged in to the fabric from the HBA, with what it registered. */
typedef struct BcbLogin {
    int port;               /* the HBA port it came in on */
    uint32_t pid;
    uint64_t wwpn, wwnn;
    bool scr;
    bool fc4_fcp;
    uint8_t features;
    char spn[256];
} BcbLogin;

/* A remote port's view of an initiator that logged in to it. */
typedef struct BcbSession {
    uint32_t sid;
    bool plogi, prli;
} BcbSession;

typedef struct BcbFabric {
    BcbLogin login[BCB_MAX_LOGINS];
    BcbSession session[BCB_MAX_TARGETS][BCB_MAX_LOGINS];
    uint16_t oxid;
    uint32_t p2p_peer;      /* point to point: the address the peer got */
} BcbFabric;

#define BCB_MAX_LPS 64
#define BCB_BACKLOG_MAX 4096     /* answers held for a full ring */
#define BCB_MAX_UF 256
#define BCB_MAX_RPORTS 256

/* A response waiting for room on its ring, or for its time to come. */
typedef struct BcbPending {
    uint8_t msg[BCB_ELEM];
    int fn, q;
    unsigned gen;
    int64_t due;
    QSIMPLEQ_ENTRY(BcbPending) next;
} BcbPending;

/* A receive buffer the host posted for unsolicited frames. */
typedef struct BcbUfBuf {
    uint8_t tag[2];
    uint32_t len;
    uint64_t addr;
} BcbUfBuf;

/* The firmware's context for a remote port the host logged in to. */
typedef struct BcbRport {
    bool used, itn;
    uint8_t host_handle[2];
    uint32_t pid, local_pid;
} BcbRport;

typedef struct BcbIo BcbIo;

typedef struct BcbPort {
    int fn;
    bool running;           /* firmware started on this port */
    bool enabled;           /* IOC ENABLE answered */
    bool configured;        /* IOCFC configuration accepted */
    bool hb_stall;          /* fault: heartbeat stops counting */

    /* mailbox towards the host, one message shown at a time */
    uint8_t mbox_out[BCB_MBOX_DEPTH][BCB_MBOX_BYTES];
    unsigned mbox_head, mbox_count;

    uint32_t active;        /* unmasked causes already signalled */
    unsigned gen;           /* counts configurations of the rings */

    bool port_enabled;
    bool admin_down;        /* PORT class: the port is turned off */
    int64_t stats_reset;
    uint64_t stats_addr;    /* where FC port statistics go */
    bool link_up;
    uint32_t lps[BCB_MAX_LPS];          /* N_Port ID per login tag */
    uint64_t lps_wwpn[BCB_MAX_LPS];     /* point to point: names */
    uint64_t lps_wwnn[BCB_MAX_LPS];
    BcbUfBuf uf[BCB_MAX_UF];
    unsigned uf_head, uf_count;
    BcbRport rport[BCB_MAX_RPORTS];     /* by firmware handle, 0 unused */
    BcbIo *io[2048];                    /* outstanding I/O by tag */

    unsigned nq;
    BcbRing req[BCB_NQ];
    BcbRing rsp[BCB_NQ];
    QSIMPLEQ_HEAD(, BcbPending) backlog[BCB_NQ];
    unsigned backlog_len[BCB_NQ];
    uint64_t sense_base[4];
    unsigned max_ios;
} BcbPort;

/* A PCI function's view of the chip: which port its BAR0 serves. */
typedef struct BcbFunc {
    BcbState *chip;
    int fn;
} BcbFunc;

struct BcbState {
    PCIDevice parent_obj;
    PCIDevice *fn1;         /* the second port's function, if plugged */
    BcbFunc func[2];

    MemoryRegion bar0;
    uint32_t regs[0x20000 / 4];
    uint8_t *smem;
    uint8_t *flash[8];      /* partitions, kept across resets */

    BcbPort port[2];
    QEMUBH *work;
    QEMUTimer *beat;
    QEMUTimer *link;
    QEMUTimer *later_timer;
    QSIMPLEQ_HEAD(, BcbPending) later;

    SCSIBus bus;
    BcbFabric fabric;
    uint64_t targets_away;  /* fault: targets gone from the fabric */
    bool link_down;         /* fault: the cable is pulled */
    bool p2p;               /* cabled to one target, no switch */
    uint32_t els_drop;      /* fault: this many exchanges get no answer */
    uint32_t io_drop;       /* fault: this many commands get no answer */
    uint32_t io_delay_ms;   /* fault: commands wait this long */
    uint32_t io_hang;       /* fault: no answers until a reset (BCB_HANG_*) */
    int64_t fault_lun;      /* target << 16 | LUN of the three above, or -1 */
    uint32_t fuzz_left;     /* hostile: this many bad responses to come */
    uint32_t fuzz_seed;
    GRand *fuzz_rand;

    /* properties */
    uint64_t wwpn;
    uint64_t wwnn;
    char *serial;
    bool msix;
};

/* brocade-fabric.c */
bool bcb_fabric_p2p_peer(BcbState *s, uint64_t *wwpn, uint64_t *wwnn);
void bcb_fabric_p2p_local(BcbState *s, int port, uint32_t pid, uint64_t wwpn,
                          uint64_t wwnn);
int bcb_fabric_target(BcbState *s, uint32_t pid);
bool bcb_fabric_session(BcbState *s, int t, uint32_t sid);
uint32_t bcb_fabric_login(BcbState *s, int port, bool fdisc, uint64_t wwpn,
                          uint64_t wwnn, uint8_t *reason);
void bcb_fabric_logout(BcbState *s, uint32_t pid);
void bcb_fabric_link_lost(BcbState *s, int port);
uint64_t bcb_fabric_name(void);
size_t bcb_fabric_exchange(BcbState *s, const uint8_t *hdr,
                           const uint8_t *req, size_t len, uint8_t *rsp,
                           size_t max);
void bcb_fabric_reply_header(const uint8_t *hdr, uint8_t *out);
void bcb_fabric_target_change(BcbState *s, int t, bool away);

/* brocade-cb.c: a frame from the fabric to HBA port p */
void bcb_port_receive(BcbState *s, int port, const uint8_t *hdr,
                      const uint8_t *payload, size_t len);

#endif
