/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ServerEngines BladeEngine 2 iSCSI offload driver: what its files share.
 *
 * The card's iSCSI function runs the TCP connections and the data phases
 * of SCSI commands itself.  The host talks to its firmware through a
 * bootstrap mailbox and an MCC ring, gives it event and completion queues,
 * two default PDU rings for what arrives outside a command, a WRB ring
 * per connection and the SGL pages of the I/O contexts (ICDs).  iSCSI
 * sessions, login and error recovery are libiscsi's.
 */
#ifndef _BE2ISCSI_H
#define _BE2ISCSI_H

#include <linux/completion.h>
#include <linux/if_ether.h>
#include <linux/irq_poll.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <scsi/libiscsi.h>
#include <scsi/scsi_transport_iscsi.h>

#define BE2_NAME		"be2iscsi"

/* ---- registers ---------------------------------------------------------- */

/* BAR1: the configuration registers in memory space */
#define BE2_MEMBAR_CTRL		0xfc
#define BE2_MEMBAR_INTR_EN	BIT(29)

/* BAR2: control and status */
#define BE2_POST_STAGE		0xac
#define BE2_POST_STAGE_MASK	0xffff
#define BE2_POST_READY		0xc000
#define BE2_POST_ERROR		BIT(31)
#define BE2_ISR(fn)		(0xc18 + 4 * (fn))

/* BAR4: doorbells */
#define BE2_DB_WRB		0x40
#define BE2_DB_DEFQ		0xa0
#define BE2_DB_EQ_CQ		0x120
#define BE2_DB_MCC		0x140
#define BE2_DB_MBOX		0x160

#define BE2_MBOX_READY		BIT(0)
#define BE2_MBOX_HI		BIT(1)

/* EQ/CQ doorbell */
#define BE2_DB_EVENT		BIT(10)
#define BE2_DB_CLR_INTR		BIT(9)
#define BE2_DB_REARM		BIT(29)
#define BE2_DB_POPPED_SHIFT	16

/* default PDU ring doorbell */
#define BE2_DB_DEFQ_REARM	BIT(14)
#define BE2_DB_DEFQ_EVENT	BIT(15)

/* ---- commands ----------------------------------------------------------- */

enum be2_subsys {
	BE2_SUB_COMMON = 1,
	BE2_SUB_ISCSI = 2,
	BE2_SUB_ISCSI_INI = 6,
};

enum be2_common_op {
	BE2_OP_CQ_CREATE = 12,
	BE2_OP_EQ_CREATE = 13,
	BE2_OP_CNTL_ATTRIBUTES = 32,
	BE2_OP_MCC_DESTROY = 53,
	BE2_OP_CQ_DESTROY = 54,
	BE2_OP_EQ_DESTROY = 55,
	BE2_OP_TCP_UPLOAD = 56,
	BE2_OP_FW_CONFIG = 58,
	BE2_OP_FUNCTION_RESET = 61,
	BE2_OP_MCC_CREATE_EXT = 90,
};

enum be2_iscsi_op {
	BE2_OP_INVALIDATE_ICDS = 1,
	BE2_OP_SGL_POST = 2,
	BE2_OP_SGL_REMOVE = 3,
	BE2_OP_NIC_CONFIG = 7,
	BE2_OP_SET_VLAN = 14,
	BE2_OP_DHCP_ON = 17,
	BE2_OP_DHCP_OFF = 18,
	BE2_OP_MODIFY_IP = 21,
	BE2_OP_GET_GATEWAY = 22,
	BE2_OP_MODIFY_GATEWAY = 23,
	BE2_OP_IF_HANDLES = 24,
	BE2_OP_IF_INFO = 25,
	BE2_OP_ISCSI_CLEANUP = 59,
	BE2_OP_DEFQ_CREATE = 64,
	BE2_OP_DEFQ_DESTROY = 65,
	BE2_OP_WRBQ_CREATE = 66,
	BE2_OP_WRBQ_DESTROY = 67,
	BE2_OP_CONNECT_OFFLOAD = 70,
};

enum be2_ini_op {
	BE2_OP_HBA_NAME = 6,
	BE2_OP_INVALIDATE_CONN = 42,
};

/* header of every command; the firmware answers over it */
struct be2_cmd_hdr {
	u8 opcode;
	u8 subsystem;
	u8 port;
	u8 domain;
	__le32 timeout;		/* response: status, additional status */
	__le32 req_len;		/* response: response length */
	__le32 version;		/* response: actual response length */
};

#define be2_cmd_status(h)	(le32_to_cpu((h)->timeout) & 0xff)
#define be2_cmd_addl(h)		((le32_to_cpu((h)->timeout) >> 8) & 0xff)

#define BE2_EMBED_BYTES		236
#define BE2_CMD_BUF_BYTES	4096

/* a WRB of the mailbox and of the MCC ring */
struct be2_mcc_wrb {
	__le32 flags;
#define BE2_WRB_EMBEDDED	BIT(0)
#define BE2_WRB_SGE_SHIFT	3
	__le32 payload_len;
	u32 tag0;		/* the host's, handed back as it is */
	u32 tag1;
	__le32 rsvd;
	union {
		u8 embedded[BE2_EMBED_BYTES];
		struct {
			__le32 pa_lo;
			__le32 pa_hi;
			__le32 len;
		} sge;
	} payload;
};

/* a completion of the MCC queue: of a command, or an async event */
struct be2_mcc_cqe {
	__le32 status;
	u32 tag0;
	u32 tag1;
	__le32 flags;
#define BE2_MCQE_VALID		BIT(31)
#define BE2_MCQE_ASYNC		BIT(30)
#define BE2_MCQE_COMPLETED	BIT(28)
#define BE2_MCQE_EVENT(f)	(((f) >> 8) & 0xff)
};

#define BE2_EVENT_LINK_STATE	1

struct be2_mbox {
	struct be2_mcc_wrb wrb;
	struct be2_mcc_cqe cqe;
};

/* an entry of an event queue */
#define BE2_EQE_VALID		BIT(0)
#define BE2_EQE_RESOURCE(e)	((e) >> 16)

/* an entry of the iSCSI completion queue */
struct be2_cqe {
	__le32 dw[4];
};

#define BE2_CQE_VALID		BIT(31)
#define BE2_CQE_CODE(dw2)	((dw2) & 0x3f)
#define BE2_CQE_CID(dw2)	(((dw2) >> 6) & 0x3ff)

/*
 * Completion codes.  Most of those between the two notices are the card
 * telling that it has given up a connection (or a command on it, which
 * then never completes): libiscsi recovers the session.
 */
enum be2_cqe_code {
	BE2_CQE_SOL_DONE = 1,
	BE2_CQE_DATA_DIGEST = 2,
	BE2_CQE_PDU_TOO_BIG = 3,
	BE2_CQE_BURST_MISMATCH = 4,
	BE2_CQE_AHS = 5,
	BE2_CQE_HDR_DIGEST = 6,
	BE2_CQE_UNKNOWN_HDR = 7,
	BE2_CQE_STALE_ITT = 8,
	BE2_CQE_BAD_ITT = 9,
	BE2_CQE_RST_RCVD = 10,
	BE2_CQE_TCP_TIMEOUT = 11,
	BE2_CQE_RST_SENT = 12,
	BE2_CQE_FIN_RCVD = 13,
	BE2_CQE_BAD_UNSOL = 14,
	BE2_CQE_BAD_WRB = 15,
	BE2_CQE_OVERRUN = 16,
	BE2_CQE_UNDERRUN = 17,
	BE2_CQE_BAD_STATSN = 18,
	BE2_CQE_BAD_R2T = 19,
	BE2_CQE_BAD_LUN = 20,
	BE2_CQE_BAD_ICD = 21,
	BE2_CQE_BAD_CMD_ITT = 22,
	BE2_CQE_OUT_OF_ORDER = 23,
	BE2_CQE_BAD_DATASN = 24,
	BE2_CQE_CONN_INVALIDATED = 25,
	BE2_CQE_CONN_INVALIDATED_IDX = 26,
	BE2_CQE_CMD_INVALIDATED = 27,
	BE2_CQE_UNSOL_HDR = 28,
	BE2_CQE_UNSOL_DATA = 29,
	BE2_CQE_UNSOL_DIGEST = 30,
	BE2_CQE_DRIVER_MSG = 31,
	BE2_CQE_DATA_OTHER_CONN = 32,
	BE2_CQE_DIF = 33,
	BE2_CQE_SYN_RCVD = 34,
	BE2_CQE_IMM_DATA = 35,
};

/* a connection's WRB: an I/O, a management PDU or a context update */
struct be2_wrb {
	__le32 dw[16];
};

#define BE2_WRB_LUN_MASK	0x3fff
#define BE2_WRB_INVALID		BIT(15)
#define BE2_WRB_IDX_SHIFT	16
#define BE2_WRB_DSP		BIT(24)
#define BE2_WRB_DMSG		BIT(25)
#define BE2_WRB_TYPE_SHIFT	28

enum be2_wrb_type {
	BE2_WRB_WRITE = 1,
	BE2_WRB_TMF = 2,	/* and logout */
	BE2_WRB_READ = 5,
	BE2_WRB_CTX_UPDATE = 7,
	BE2_WRB_RAW = 11,	/* a PDU the host built whole */
};

/* an element of an ICD's SGL */
struct be2_sge {
	__le32 pa_hi;
	__le32 pa_lo;
	__le32 offset;		/* and bit 31: the last element */
	__le32 len;
};

#define BE2_SGE_LAST		BIT(31)
#define BE2_SGE_LEN_MAX		0x10000

/* ---- sizes -------------------------------------------------------------- */

#define BE2_PAGE		4096
#define BE2_EQ_ENTRIES		1024
#define BE2_IO_CQ_ENTRIES	1024
#define BE2_MCC_CQ_ENTRIES	256
#define BE2_MCC_ENTRIES		32
#define BE2_DEFQ_ENTRIES	64
#define BE2_DEFQ_HDR_BYTES	64
#define BE2_DEFQ_DATA_BYTES	8192
#define BE2_DEFQ_REPOST		8
#define BE2_WRB_PAGES		4
#define BE2_WRBS		(BE2_WRB_PAGES * BE2_PAGE / 64)
#define BE2_CTX_WRB		(BE2_WRBS - 1)
#define BE2_CMDS_MAX		128	/* tasks of a session: WRB indices */
#define BE2_ICD_BYTES		512
#define BE2_ICD_SGES		(BE2_ICD_BYTES / sizeof(struct be2_sge))
#define BE2_DATA_SGES		(BE2_ICD_SGES - 2)
#define BE2_MAX_CIDS		64
#define BE2_MAX_ICDS		2048
#define BE2_SENSE_OFF		64
#define BE2_BHS_BYTES		(BE2_SENSE_OFF + 2 + SCSI_SENSE_BUFFERSIZE + 2)
#define BE2_RX_PDU_MAX		65536	/* a PDU from the default rings */
#define BE2_CMD_TIMEOUT_MS	10000

/* ---- the driver's state ------------------------------------------------- */

/* a ring of fixed-size entries in coherent memory */
struct be2_ring {
	void *va;
	dma_addr_t pa;
	u32 entries;
	u32 esize;
	u32 tail;		/* the next entry the host reads or writes */
	u16 id;
	bool live;
};

static inline void *be2_ring_at(struct be2_ring *r, u32 idx)
{
	return r->va + (idx % r->entries) * r->esize;
}

struct be2_hba;

struct be2_eq {
	struct be2_ring ring;
	struct be2_hba *hba;
	struct irq_poll iop;
	unsigned int vector;
	bool irq_on;
	char irq_name[32];
};

/* a command waiting on the MCC ring */
struct be2_mcc_slot {
	struct completion done;
	struct be2_cmd_hdr *resp;	/* where the response lands */
	int status;
	bool busy;
};

/* a default PDU ring: buffers at fixed entries */
struct be2_defq {
	struct be2_ring ring;
	void **buf;
	dma_addr_t *buf_pa;
	u32 bufsize;
	u32 taken;		/* consumed, not yet given back */
};

/* the SGL pages of the ICDs */
struct be2_sgl_page {
	void *va;
	dma_addr_t pa;
};

struct be2_hba {
	struct pci_dev *pdev;
	struct Scsi_Host *shost;
	void __iomem *cfg;
	void __iomem *csr;
	void __iomem *db;

	/* bootstrap mailbox, one command at a time */
	struct mutex mbox_lock;
	struct be2_mbox *mbox;
	dma_addr_t mbox_pa;

	/* MCC ring and its completions: mcc_lock guards ring and slots */
	spinlock_t mcc_lock;
	struct be2_ring mccq;
	struct be2_mcc_slot mcc_slot[BE2_MCC_ENTRIES];
	struct mutex cmd_buf_lock;	/* one non-embedded command at a time */
	void *cmd_buf;		/* non-embedded commands */
	dma_addr_t cmd_buf_pa;

	/* queues: eq[0] and cq[0] for I/O, eq[1] and cq[1] for the MCC */
	struct be2_eq eq[2];
	unsigned int neq;
	struct be2_ring cq[2];
	struct be2_defq defq_hdr;
	struct be2_defq defq_data;

	/* what the firmware gave us */
	u32 cid_base, cid_count;
	u32 icd_base, icd_count;
	u32 if_handle;
	u8 mac[ETH_ALEN];
	char fw_ver[32];
	char iname[224];

	/* ICDs, in blocks of BE2_CMDS_MAX handed to sessions */
	struct be2_sgl_page *sgl;
	unsigned int sgl_pages;
	unsigned long *icd_map;
	spinlock_t icd_lock;		/* guards icd_map */

	/* connections by CID: written under conn_lock, read under RCU */
	spinlock_t conn_lock;
	struct be2_conn __rcu *conn[BE2_MAX_CIDS];

	struct dma_pool *bhs_pool;
	struct iscsi_iface *iface4;
	bool intx;
	bool host_added;
	bool link_up;
	u8 link_speed;
	bool dead;		/* the card stopped answering */
};

/* the endpoint: one TCP connection of the card */
struct be2_ep {
	struct be2_hba *hba;
	struct be2_conn *conn;
	struct be2_ring wrbq;
	u16 cid;
	u32 handle;
	bool offloaded;		/* the card holds a TCP connection */
	struct sockaddr_storage dst;
};

/* per iSCSI connection (libiscsi's conn dd_data) */
struct be2_conn {
	struct iscsi_conn *conn;
	struct be2_ep *ep;
	struct be2_hba *hba;
	struct be2_wrb *last_wrb;	/* chain: the WRB posted last */
	/* a PDU coming through the default rings */
	struct iscsi_hdr rx_hdr;
	u8 *rx_data;
	u32 rx_len;
	bool rx_open;
	bool rx_overflow;
};

/* per session (the dd_size space of iscsi_session_setup) */
struct be2_session {
	struct be2_hba *hba;
	u32 icd_block;		/* the session's ICDs: block * BE2_CMDS_MAX */
};

/* per task (libiscsi's task dd_data) */
struct be2_task {
	void *bhs;		/* header, and the sense the card writes */
	dma_addr_t bhs_pa;
	dma_addr_t data_pa;	/* a management PDU's data segment */
	u32 data_len;
	u16 icd;
	bool mapped;
};

/* be2_hw.c */
int be2_hw_wait_ready(struct be2_hba *hba);
void be2_hw_intr(struct be2_hba *hba, bool on);
void be2_ring_eq_db(struct be2_hba *hba, u16 id, u32 popped, bool rearm,
		    bool clear);
void be2_ring_cq_db(struct be2_hba *hba, u16 id, u32 popped, bool rearm);
void be2_ring_defq_db(struct be2_hba *hba, u16 id, u32 count);
void be2_ring_wrb_db(struct be2_hba *hba, u16 cid, u32 idx);
int be2_hw_irq_setup(struct be2_hba *hba);
void be2_hw_irq_teardown(struct be2_hba *hba);

/* be2_cmd.c */
void *be2_cmd_init(struct be2_hba *hba, struct be2_mcc_wrb *wrb, u8 sub,
		   u8 op, u32 len);
int be2_cmd(struct be2_hba *hba, u8 sub, u8 op, void *req, u32 len);
void be2_mcc_process(struct be2_hba *hba);
void be2_mcc_fail_all(struct be2_hba *hba);
int be2_fw_init(struct be2_hba *hba, bool load);
int be2_fw_config(struct be2_hba *hba);
int be2_read_identity(struct be2_hba *hba);
int be2_invalidate_icds(struct be2_hba *hba, u16 cid, const u16 *icd,
			unsigned int n);

/* be2_ring.c */
int be2_rings_create(struct be2_hba *hba);
void be2_rings_destroy(struct be2_hba *hba);
int be2_wrbq_create(struct be2_hba *hba, struct be2_ep *ep);
void be2_wrbq_destroy(struct be2_hba *hba, struct be2_ep *ep);
void be2_defq_give_back(struct be2_hba *hba, struct be2_defq *q);
void be2_ring_free(struct be2_hba *hba, struct be2_ring *r);
void be2_rings_free(struct be2_hba *hba);

/* be2_io.c */
int be2_alloc_pdu(struct iscsi_task *task, u8 opcode);
int be2_xmit_task(struct iscsi_task *task);
void be2_cleanup_task(struct iscsi_task *task);
void be2_parse_itt(struct iscsi_conn *conn, itt_t itt, int *index, int *age);
int be2_process_cq(struct be2_hba *hba, int budget);
int be2_ctx_update(struct be2_conn *bc);
int be2_eh_abort(struct scsi_cmnd *sc);
int be2_eh_device_reset(struct scsi_cmnd *sc);

/* be2_conn.c */
extern struct iscsi_transport be2_transport;
int be2_iface_create(struct be2_hba *hba);
void be2_iface_destroy(struct be2_hba *hba);
void be2_link_event(struct be2_hba *hba, const struct be2_mcc_cqe *cqe);
struct be2_conn *be2_conn_get(struct be2_hba *hba, u32 cid);
void be2_port_publish(struct be2_hba *hba, bool added);
void be2_conns_fail(struct be2_hba *hba);

#endif
