/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Brocade Fibre Channel HBA driver: what the files of the driver share.
 *
 * One struct bfa_port per PCI function: on the Crossbow (CB) ASIC each
 * function is one FC port with its own registers, mailbox and interrupts,
 * while the two ports share one firmware, its shared memory and the
 * hardware semaphores that order their access to it.
 */
#ifndef _BFA_H
#define _BFA_H

#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <scsi/fc/fc_fcp.h>
#include <scsi/fc/fc_fs.h>
#include <scsi/libfc.h>
#include <scsi/scsi_cmnd.h>

struct fc_frame;
struct fc_lport;

#define BFA_NAME		"bfa"
#define BFA_FW_CB		"cbfw-3.2.5.1.bin"

#define BFA_DEVICE_CB_2PORT	0x0013	/* 825 */

/* ---- the firmware's messages ------------------------------------------ */

#define BFA_MBOX_BYTES		32

/* header: class, id, token (or queue id), destination */
struct bfa_msg_hdr {
	u8 class;
	u8 id;
	u8 token;
	u8 dest;
} __packed;

#define BFA_REPLY(id)		((id) | 0x80)

enum bfa_msg_class {
	BFA_MC_IOC = 1,
	BFA_MC_FCPORT = 5,
	BFA_MC_IOCFC = 6,
	BFA_MC_UF = 8,
	BFA_MC_FCXP = 9,
	BFA_MC_LPS = 10,
	BFA_MC_RPORT = 11,
	BFA_MC_ITN = 12,
	BFA_MC_IO_READ = 13,	/* an I/O request's class is its direction */
	BFA_MC_IO_WRITE = 14,
	BFA_MC_IO_NODATA = 15,
	BFA_MC_IO = 16,		/* aborts, cleanups and full completions */
	BFA_MC_IO_GOOD = 17,
	BFA_MC_TM = 18,
};

/* a service's completion status; 0 is success */
enum bfa_status {
	BFA_ST_OK = 0,
	BFA_ST_ETIMER = 5,
	BFA_ST_FABRIC_RJT = 29,
};

enum bfa_ioc_msg {
	BFA_IOC_ENABLE = 1,
	BFA_IOC_DISABLE = 2,
	BFA_IOC_GETATTR = 3,
	BFA_IOC_HEARTBEAT = 0x84,
};

/* a 64-bit bus address: big-endian words, low word first */
struct bfa_dma_addr {
	__be32 lo;
	__be32 hi;
} __packed;

static inline void bfa_dma_set(struct bfa_dma_addr *a, dma_addr_t dma)
{
	a->lo = cpu_to_be32(lower_32_bits(dma));
	a->hi = cpu_to_be32(upper_32_bits(dma));
}

struct bfa_ioc_ctl_req {
	struct bfa_msg_hdr hdr;
	__be16 pci_class;
	u16 rsvd;
	__be32 tv_sec;
} __packed;

struct bfa_ioc_ctl_rsp {
	struct bfa_msg_hdr hdr;
	u8 status;
	u8 port_mode;
	u8 cap;
	u8 rsvd;
} __packed;

struct bfa_ioc_getattr_req {
	struct bfa_msg_hdr hdr;
	struct bfa_dma_addr addr;
} __packed;

/* the IOC attributes the firmware writes in host memory (752 bytes) */
struct bfa_ioc_attr {
	__be64 mfg_pwwn;
	__be64 mfg_nwwn;
	u8 mfg_mac[6];
	u8 port_mode;
	u8 rsvd0;
	__be64 pwwn;
	__be64 nwwn;
	u8 mac[6];
	u8 rsvd1[2];
	u8 fcoe_mac[6];
	u8 rsvd2[2];
	char serial[12];
	u8 pcie_gen;
	u8 pcie_lanes_orig;
	u8 pcie_lanes;
	u8 rx_bb_credit;
	__be32 props;
	__be16 max_frame;
	u8 asic_rev;
	u8 rsvd3;
	char fw_version[64];
	char rom_version[64];
	u8 vpd[520];
	__be32 card_type;
	u8 mfg_day;
	u8 mfg_month;
	__be16 mfg_year;
	u8 uuid[16];
} __packed;

/* props: speed in Gbit/s in the low byte */
#define BFA_PROP_SPEED		GENMASK(7, 0)

/* ---- the queues: configuration the host gives, the answer it gets ---- */

#define BFA_NQ			4	/* request/response ring pairs */
#define BFA_REQ_DEPTH		256
#define BFA_RSP_DEPTH		64
#define BFA_ELEM		128	/* bytes in a ring element */
#define BFA_IOCFC_CFG		1
#define BFA_ENDIAN_SIG		0x12345678	/* in host order */

struct bfa_cfg_info {
	u8 num_queues;
	u8 sense_len;
	u16 rsvd0;
	u32 endian_sig;
	u8 rsvd1;
	u8 single_vector;
	u16 rsvd2;
	__be16 num_ios;
	__be16 num_fwtio;
	struct bfa_dma_addr req_base[BFA_NQ];
	struct bfa_dma_addr req_shadow[BFA_NQ];
	__be16 req_depth[BFA_NQ];
	struct bfa_dma_addr rsp_base[BFA_NQ];
	struct bfa_dma_addr rsp_shadow[BFA_NQ];
	__be16 rsp_depth[BFA_NQ];
	struct bfa_dma_addr stats;
	struct bfa_dma_addr cfg_rsp;
	struct bfa_dma_addr sense_base[BFA_NQ];
	u8 coalesce;
	u8 rsvd3[3];
	__be16 latency;
	__be16 delay;
} __packed;

struct bfa_cfg_rsp {
	u8 rsvd0[4];
	__be16 num_rports;
	__be16 num_ios;
	__be16 num_tms;
	__be16 num_fwtio;
	__be16 num_fcxps;
	__be16 num_ufs;
	u8 num_queues;
	u8 tick;
	u8 rsvd1[6];
	u8 coalesce;
	u8 rsvd2[3];
	__be16 latency;
	__be16 delay;
	u8 boot[40];
	u8 preboot[8];
	__be64 preboot_pwwn;
	__be64 preboot_nwwn;
	u8 preboot_luns_vports[384];
	__be32 req_ci_reg[BFA_NQ];
	__be32 req_pi_reg[BFA_NQ];
	__be32 req_ctl_reg[BFA_NQ];
	__be32 rsp_ci_reg[BFA_NQ];
	__be32 rsp_pi_reg[BFA_NQ];
	__be32 rsp_ctl_reg[BFA_NQ];
	u8 hw_qid[BFA_NQ];
} __packed;

struct bfa_iocfc_cfg_req {
	struct bfa_msg_hdr hdr;
	struct bfa_dma_addr info;
} __packed;

/* what host and firmware share besides the rings, in one DMA block */
struct bfa_shared {
	struct { __le32 ci; u8 pad[60]; } req_shadow[BFA_NQ];
	struct { __le32 pi; u8 pad[60]; } rsp_shadow[BFA_NQ];
	struct bfa_cfg_info info;
	struct bfa_cfg_rsp cfg;
	u8 port_stats[360];
};

struct bfa_ring {
	void *base;
	dma_addr_t dma;
	unsigned int depth;
	unsigned int index;	/* request: producer; response: consumer */
	void __iomem *reg;	/* its index register, as the firmware said */
	u8 hw_qid;
	spinlock_t lock;	/* request rings: one producer at a time */
};

/* ---- FC port: enable, link events ------------------------------------- */

enum bfa_fcport_msg {
	BFA_FCPORT_ENABLE = 1,
	BFA_FCPORT_EVENT = 0x86,
};

struct bfa_port_cfg {
	u8 topology;
	u8 speed;
	u8 trunked;
	u8 qos;
	u8 cfg_hardalpa;
	u8 hardalpa;
	__be16 max_frame;
	u8 rx_bb_credit;
	u8 tx_bb_credit;
	u8 rate_limit;
	u8 rate_limit_speed;
	u8 bb_cr;
	u8 bb_scn;
	u8 faa;
	u8 rsvd0;
	u16 path_tov;
	u16 q_depth;
	u8 qos_bw[4];
} __packed;

struct bfa_fcport_enable_req {
	struct bfa_msg_hdr hdr;
	u32 rsvd0;
	__be64 nwwn;
	__be64 pwwn;
	struct bfa_port_cfg cfg;
	struct bfa_dma_addr stats;
	u32 tag;		/* echoed in the reply */
	u8 use_flash_cfg;
	u8 rsvd1[3];
} __packed;

struct bfa_fcport_event {
	struct bfa_msg_hdr hdr;
	u8 state;		/* 1 up, else down */
	u8 reason;
	u8 topology;
	u8 speed;		/* Gbit/s */
} __packed;

#define BFA_LINK_UP		1
#define BFA_TOPO_P2P		5
#define BFA_SPEED_AUTO		0x0f

/* ---- fabric login, exchanges and received frames ---------------------- */

enum bfa_lps_msg {
	BFA_LPS_LOGIN = 1,
	BFA_LPS_LOGOUT = 2,
	BFA_LPS_N2N_PID = 3,
};

struct bfa_login_req {
	struct bfa_msg_hdr hdr;
	u8 tag;			/* ours, echoed */
	u8 alpa;
	__be16 pdu_size;
	__be64 pwwn;
	__be64 nwwn;
	u8 fdisc;
	u8 auth;
	u8 rsvd[6];
} __packed;

struct bfa_login_rsp {
	struct bfa_msg_hdr hdr;
	u8 fw_tag;		/* the firmware's handle of the login */
	u8 status;
	u8 rjt_reason;
	u8 rjt_explan;
	__be64 port_name;	/* of the F_Port, or the point-to-point peer */
	__be64 node_name;	/* fabric name, or the peer's node name */
	__be16 bb_credit;
	u8 f_port;
	u8 npiv;
	u8 pid[3];
	u8 rsvd0[13];
	u8 ext_status;
	u8 brcd_switch;
	u8 tag;
	u8 rsvd1;
} __packed;

/* logout of a virtual port; the N_Port ID we took point to point */
struct bfa_lps_tag_req {
	struct bfa_msg_hdr hdr;
	u8 fw_tag;
	u8 pid[3];
	__be64 pwwn;
} __packed;

#define BFA_FCXP_SEND		1
#define BFA_UF_POST		1
#define BFA_UF_RECEIVED		0x81

struct bfa_fcxp_req {
	struct bfa_msg_hdr hdr;
	__be16 tag;
	__be16 max_frame;
	__be16 vf_id;
	__le16 rport;		/* the firmware's remote port, 0 for none */
	u8 class;
	u8 rsp_tmo;		/* seconds; 0: a reply, nothing comes back */
	u8 cts;
	u8 lp_tag;		/* the login it is sent under */
	struct fc_frame_header fh;
	__be32 req_len;
	__be32 rsp_max;
	struct bfa_dma_addr req_addr;
	__be32 req_buf_len;
	struct bfa_dma_addr rsp_addr;
	__be32 rsp_buf_len;
} __packed;

struct bfa_fcxp_rsp {
	struct bfa_msg_hdr hdr;
	__be16 tag;
	u8 status;
	u8 rsvd;
	__be32 rsp_len;
	__be32 residue;
	struct fc_frame_header fh;
} __packed;

struct bfa_uf_post {
	struct bfa_msg_hdr hdr;
	__le16 tag;
	__be16 buf_len;
	struct bfa_dma_addr addr;
	__be32 len;
} __packed;

struct bfa_uf_rcvd {
	struct bfa_msg_hdr hdr;
	__le16 tag;
	u16 rsvd;
	__be16 frm_len;
	__be16 xfr_len;		/* header and payload in the buffer */
} __packed;

#define BFA_FCXP_N		32	/* exchanges in flight */
#define BFA_FCXP_RSP_MAX	4096	/* a name server answer fits */
#define BFA_UF_N		64	/* receive buffers */
#define BFA_LOGINS		16	/* the port's login and its vports' */

struct bfa_fcxp_buf {
	u8 req[FC_MAX_PAYLOAD];
	u8 rsp[BFA_FCXP_RSP_MAX];
};

struct bfa_uf_buf {
	u8 frame[FC_MAX_FRAME];
};

/* what an exchange in flight needs for the answer to find libfc's */
struct bfa_fcxp {
	struct fc_lport *lport;
	u32 sid, did;
	u16 ox_id;
	u8 type;
	bool busy;
	bool want_rsp;
	bool orphan;		/* libfc gave up on it: drop what comes */
};

/* a libfc local port: the physical port's, or a vport's */
struct bfa_lp {
	struct bfa_port *port;
	struct fc_lport *lport;
	u8 tag;			/* ours: 0 for the physical port */
	u8 fw_tag;
	bool login_pending;
	u16 login_oxid;		/* of the FLOGI/FDISC libfc waits on */
	unsigned long login_sent;
	u16 io_base, n_io;	/* its share of the I/O tags */
};

/* ---- remote ports, I-T nexus, I/O and task management ------------------ */

#define BFA_CREATE		1	/* rport, nexus: create, delete */
#define BFA_DELETE		2
#define BFA_IO_ABORT		1
#define BFA_IO_CLEANUP		2
#define BFA_TM_REQ		1

struct bfa_rport_req {
	struct bfa_msg_hdr hdr;
	__le16 handle;		/* create: ours; delete: the firmware's */
	__be16 max_frame;
	u8 pid[3];
	u8 lp_tag;
	u8 local_pid[3];
	u8 cisc;
	u8 class;
	u8 vf_en;
	__le16 vf_id;
} __packed;

struct bfa_rport_rsp {
	struct bfa_msg_hdr hdr;
	u8 status;		/* create */
	u8 rsvd0[3];
	__le16 handle;		/* ours */
	__le16 fw_handle;
	u8 rsvd1[8];
} __packed;

struct bfa_itn_req {
	struct bfa_msg_hdr hdr;
	__le16 fw_handle;
	u8 class;		/* create; delete: sequence */
	u8 seq_rec;
	u8 seq;
	u8 role;
	u16 rsvd;
} __packed;

/* the answers to the nexus, and the answer to a remote port delete */
struct bfa_handle_rsp {
	struct bfa_msg_hdr hdr;
	__le16 handle;		/* ours */
	u8 status;
	u8 seq;
} __packed;

/* one element of the scatter-gather list: flags and length, address */
#define BFA_SGE_DATA		0
#define BFA_SGE_PAGE_END	1	/* data, then the link to the next page */
#define BFA_SGE_LINK		2
#define BFA_SGE_LAST		3
#define BFA_SGE_FLAGS		GENMASK(31, 30)
#define BFA_SGE_LEN		GENMASK(27, 0)

struct bfa_sge_be {		/* in the request: big-endian words */
	__be32 w0;
	__be32 lo;
	__be32 hi;
} __packed;

struct bfa_sge_le {		/* on a page: little-endian words */
	__le32 w0;
	__le32 lo;
	__le32 hi;
} __packed;

#define BFA_SG_PAGE_SLOTS	8	/* seven data elements and the link */
#define BFA_SG_PAGES		16
#define BFA_SG_MAX		(1 + BFA_SG_PAGES * (BFA_SG_PAGE_SLOTS - 1))

struct bfa_io_req {
	struct bfa_msg_hdr hdr;
	__be16 tag;
	__le16 fw_handle;
	struct fcp_cmnd fcp;
	struct bfa_sge_be sge[2];
	u8 timeout;
	u8 dif_en;
	u16 rsvd;
	u8 dif[16];
} __packed;

/* an abort or cleanup of one I/O */
struct bfa_io_abort_req {
	struct bfa_msg_hdr hdr;
	__be16 tag;
	__le16 abort_tag;
} __packed;

struct bfa_io_rsp {
	struct bfa_msg_hdr hdr;
	__be16 tag;
	__le16 rport;
	u8 io_status;
	u8 reuse_tag;
	__le16 abort_tag;
	u8 scsi_status;
	u8 sense_len;
	u8 resid_flags;
	u8 rsvd0;
	__be32 residue;
	u8 rsvd1[12];
} __packed;

/* io_status: done, ended by our abort, timed out, tag unknown to it */
#define BFA_IOS_OK		0
#define BFA_IOS_HOST_ABORTED	1
#define BFA_IOS_TIMEDOUT	3
#define BFA_IOS_UTAG		7
/* resid_flags */
#define BFA_RESID_OVER		1
#define BFA_RESID_UNDER		2

struct bfa_tm_req {
	struct bfa_msg_hdr hdr;
	__be16 tag;
	__le16 fw_handle;
	struct scsi_lun lun;
	u8 tm_flags;
	u8 t_secs;
	u16 rsvd;
} __packed;

struct bfa_tm_rsp {
	struct bfa_msg_hdr hdr;
	__be16 tag;
	u8 status;
	u8 rsvd;
} __packed;

#define BFA_IOS			2000	/* I/O tags of the port's hosts */
#define BFA_IO_PORT		1024	/* the physical port's share */
#define BFA_IO_VPORT		64	/* and each vport's */
#define BFA_SENSE_SEG		(128 * 1024)
#define BFA_SENSE_SLOT		256
#define BFA_TGTS		256	/* remote port handles, 0 unused */
#define BFA_TMS			16

/* a remote FCP target as the firmware knows it */
struct bfa_tgt {
	struct fc_rport_priv *rdata;	/* NULL: handle free */
	u32 pid;
	u16 fw_handle;
	bool fw_rport, fw_itn;		/* what the firmware holds */
	bool online;			/* I/O may go */
	u8 wait;			/* the class answering, 0: none */
	u8 status;
	u8 seq;
};

/* per command */
struct bfa_io {
	struct bfa_tgt *tgt;
	void *sg;			/* pages, for a list of more than one */
	dma_addr_t sg_dma;
	u16 abort_tag;
	bool aborting;
	int abort_result;		/* what a cleaned up command ends with */
};

struct bfa_tm {
	bool busy, done;
	u8 status;
};

/* what a remote port holds for us after libfc's part */
struct bfa_rport_priv {
	struct fc_rport_libfc_priv libfc;
	struct bfa_tgt *tgt;
};

/* ---- one port (PCI function) ------------------------------------------ */

struct bfa_port {
	struct pci_dev *pdev;
	void __iomem *bar;
	unsigned int fn;		/* PCI function = port of the ASIC */
	bool msix;
	const struct firmware *fw;

	/* mailbox: one request at a time, its reply by interrupt */
	struct mutex mbox_lock;
	struct completion mbox_done;
	u16 mbox_wait;			/* class << 8 | id waited for */
	u8 mbox_reply[BFA_MBOX_BYTES];

	/* IOC state */
	struct mutex ioc_lock;
	bool operational;
	bool removing;
	u32 heartbeat;
	struct delayed_work hb_work;
	struct work_struct recover_work;
	unsigned long recover_hard;	/* bit 0: the firmware itself failed */

	struct bfa_ioc_attr *attr;	/* DMA buffer GETATTR fills */
	dma_addr_t attr_dma;
	u64 wwpn, wwnn;
	char serial[12];
	char fw_version[64];
	u32 card_type;
	unsigned int speed_gbit;
	unsigned int max_frame;
	unsigned int rx_bb_credit;

	/* rings; valid while configured */
	struct bfa_ring req[BFA_NQ];
	struct bfa_ring rsp[BFA_NQ];
	struct bfa_shared *shared;
	dma_addr_t shared_dma;
	spinlock_t rsp_lock;		/* response rings, configured */
	bool configured;
	u32 fcport_tag;
	bool link_up;
	unsigned int link_speed;

	struct fc_lport *lport;		/* libfc's view of the port */
	struct work_struct link_work;

	/* ELS and CT: logins, exchanges, received frames */
	spinlock_t els_lock;
	struct bfa_lp *logins[BFA_LOGINS];
	struct bfa_fcxp fcxp[BFA_FCXP_N];
	unsigned int n_fcxp;		/* as many as the firmware takes */
	struct bfa_fcxp_buf *fcxp_buf;
	dma_addr_t fcxp_dma;
	struct sk_buff_head fcxp_wait;	/* frames waiting for an exchange */
	struct bfa_uf_buf *uf_buf;
	dma_addr_t uf_dma;
	unsigned int n_uf;
	DECLARE_BITMAP(uf_posted, BFA_UF_N);
	struct sk_buff_head rx_q;	/* frames for libfc */
	struct work_struct rx_work;

	/* remote ports, commands, task management */
	struct bfa_tgt tgt[BFA_TGTS];
	struct mutex tgt_lock;		/* one create or delete at a time */
	spinlock_t io_lock;
	struct scsi_cmnd *io[BFA_IOS];	/* in the firmware, by tag */
	unsigned int n_io;
	struct bfa_tm tm[BFA_TMS];
	wait_queue_head_t io_wq;	/* answers to the waits above */
	void *sense;			/* a slot per tag */
	dma_addr_t sense_dma;
	struct dma_pool *sg_pool;
};

/* the header of a message for the rings of port */
static inline struct bfa_msg_hdr bfa_hdr(const struct bfa_port *port, u8 class,
					 u8 id)
{
	return (struct bfa_msg_hdr){ .class = class, .id = id,
				     .dest = port->fn << 1 | port->fn };
}

/* bfa_hw.c: registers, semaphores, shared memory, interrupts, mailbox */
int bfa_hw_sem_get(struct bfa_port *port, unsigned int sem,
		   unsigned int timeout_ms);
void bfa_hw_sem_put(struct bfa_port *port, unsigned int sem);
/* firmware state: which = 0 for this port, 1 for the other */
u32 bfa_hw_fwstate(struct bfa_port *port, unsigned int which);
void bfa_hw_set_fwstate(struct bfa_port *port, unsigned int which, u32 state);
void bfa_hw_set_join(struct bfa_port *port, bool join);
u32 bfa_hw_heartbeat(struct bfa_port *port);
/* booting: chip, then shared memory, then the processor */
void bfa_hw_chip_init(struct bfa_port *port);
void bfa_hw_smem_write(struct bfa_port *port, u32 addr, u32 val);
void bfa_hw_smem_load(struct bfa_port *port, const u8 *data, size_t len);
u32 bfa_hw_smem_read(struct bfa_port *port, u32 addr);
void bfa_hw_lpu_run(struct bfa_port *port, bool run);
void bfa_hw_notify_fail(struct bfa_port *port);
/* interrupts and the mailbox */
int bfa_hw_irq_setup(struct bfa_port *port, bool try_msix);
void bfa_hw_irq_teardown(struct bfa_port *port);
void bfa_hw_irq_on(struct bfa_port *port, bool on);
void bfa_hw_mbox_flush(struct bfa_port *port);
int bfa_hw_mbox_call(struct bfa_port *port, const void *req, size_t len,
		     u8 reply_id, unsigned int timeout_ms);

/* bfa_ioc.c: firmware download, IOC bring-up, heartbeat, recovery */
int bfa_ioc_start(struct bfa_port *port);
/* from any context: @hard, the firmware failed; else a notice */
void bfa_ioc_failed(struct bfa_port *port, bool hard);
void bfa_ioc_stop(struct bfa_port *port);

/* bfa_queue.c: the request and response rings */
int bfa_queue_alloc(struct bfa_port *port);
int bfa_queue_configure(struct bfa_port *port);
int bfa_queue_send(struct bfa_port *port, unsigned int q, void *msg,
		   size_t len);
/* interrupt context: every new response, to its class's handler */
void bfa_queue_poll(struct bfa_port *port);
void bfa_queue_stop(struct bfa_port *port);

/* bfa_port.c: the FC port */
int bfa_port_enable(struct bfa_port *port);
void bfa_port_msg(struct bfa_port *port, const void *msg);
void bfa_port_offline(struct bfa_port *port);

/*
 * bfa_els.c: logins, ELS/CT exchanges and received frames for libfc:
 * libfc's template hooks; buffers at probe; the firmware's limits and
 * posted buffers with each ring configuration (@up), forgotten when the
 * IOC goes down; answers from interrupt context.
 */
int bfa_els_frame_send(struct fc_lport *lport, struct fc_frame *fp);
int bfa_els_alloc(struct bfa_port *port);
void bfa_els_exch_reset(struct fc_lport *lport, u32 sid, u32 did);
void bfa_els_rings(struct bfa_port *port, bool up);
void bfa_els_msg(struct bfa_port *port, const void *msg);
void bfa_els_forget(struct bfa_port *port, struct fc_lport *lport);
void bfa_els_kick(struct bfa_port *port);

/*
 * bfa_io.c: targets, commands and task management; the SCSI host's
 * handlers, libfc's remote port events
 */
extern struct scsi_host_template bfa_io_sht;
int bfa_io_alloc(struct bfa_port *port);
unsigned int bfa_io_share(struct bfa_lp *lp);
void bfa_io_rport_event(struct fc_lport *lport, struct fc_rport_priv *rdata,
			enum fc_rport_event event);
/* the firmware forgot every command and target (IOC down) */
void bfa_io_flush(struct bfa_port *port);
void bfa_io_msg(struct bfa_port *port, const void *msg);

/* bfa_fc.c: the port as a libfc local port */
int bfa_fc_init(void);
void bfa_fc_exit(void);
int bfa_fc_attach(struct bfa_port *port);
void bfa_fc_detach(struct bfa_port *port);
void bfa_fc_link_changed(struct bfa_port *port);

/* fwstate values (low 16 bits); bit 16 says the port's driver has joined */
#define BFA_FWS_UNINIT		0
#define BFA_FWS_INITING		1
#define BFA_FWS_OP		4
#define BFA_FWS_DISABLED	6
#define BFA_FWS_FAIL		8
#define BFA_FWS_STATE		0xffffu
#define BFA_FWS_JOIN		BIT(16)

#define BFA_SEM_IOC		0	/* serialises IOC state changes */
#define BFA_SEM_INIT		2	/* serialises chip init */

#endif /* _BFA_H */
