// SPDX-License-Identifier: GPL-2.0
/*
 * Brocade Fibre Channel HBA driver: ELS and CT for libfc.
 *
 * libfc builds every ELS and CT frame and keeps the state of every
 * exchange; the firmware only carries them.  Fabric login is the
 * firmware's own service: the FLOGI or FDISC libfc sends becomes a LOGIN
 * request, and the firmware's answer goes back to libfc as the accept
 * the fabric would have sent.  Every other frame leaves as a firmware
 * exchange (FCXP); its answer returns to libfc as a frame of the same
 * exchange.  Frames the fabric and the targets send on their own arrive
 * in receive buffers posted to the firmware (UF).
 *
 * libfc is only ever entered from a worker: frame_send is called under
 * libfc's locks, and the firmware's answers arrive in interrupt context.
 */
#include <scsi/fc/fc_els.h>
#include <scsi/fc_frame.h>
#include <scsi/libfc.h>
#include <scsi/scsi_transport_fc.h>

#include "bfa.h"

#define BFA_ELS_TMO_S		20	/* the firmware's wait for an answer */
#define BFA_CT_TMO_S		30
#define BFA_LOGIN_RESEND	(10 * HZ)
#define BFA_PH_VERSION		0x20	/* FC-PH version of the service parameters */
/* point to point, the side with the higher port name picks the IDs */
#define BFA_N2N_LOCAL		0x010000
#define BFA_N2N_PEER		0x020000
#define BFA_FCTL_REPLY		(FC_FC_EX_CTX | FC_FC_LAST_SEQ | \
				 FC_FC_END_SEQ | FC_FC_SEQ_INIT)

static_assert(sizeof(struct bfa_login_req) == 32);
static_assert(sizeof(struct bfa_login_rsp) == 48);
static_assert(sizeof(struct bfa_fcxp_req) == 72);
static_assert(sizeof(struct bfa_fcxp_rsp) == 40);
static_assert(sizeof(struct bfa_uf_post) == 20 &&
	      sizeof(struct bfa_uf_rcvd) == 12);

static void bfa_els_rx_work(struct work_struct *work)
{
	struct bfa_port *port = container_of(work, struct bfa_port, rx_work);
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&port->rx_q))) {
		struct fc_frame *fp = (struct fc_frame *)skb;

		fc_exch_recv(fr_dev(fp), fp);
	}
}

int bfa_els_alloc(struct bfa_port *port)
{
	struct device *dev = &port->pdev->dev;

	spin_lock_init(&port->els_lock);
	skb_queue_head_init(&port->fcxp_wait);
	skb_queue_head_init(&port->rx_q);
	INIT_WORK(&port->rx_work, bfa_els_rx_work);
	port->fcxp_buf = dmam_alloc_coherent(dev, BFA_FCXP_N *
					     sizeof(*port->fcxp_buf),
					     &port->fcxp_dma, GFP_KERNEL);
	port->uf_buf = dmam_alloc_coherent(dev, BFA_UF_N * sizeof(*port->uf_buf),
					   &port->uf_dma, GFP_KERNEL);
	return port->fcxp_buf && port->uf_buf ? 0 : -ENOMEM;
}

/* To libfc, from process context (els_lock held: see bfa_els_forget). */
static void bfa_els_deliver(struct bfa_port *port, struct fc_lport *lport,
			    struct fc_frame *fp)
{
	fr_dev(fp) = lport;
	fr_sof(fp) = FC_SOF_I3;
	fr_eof(fp) = FC_EOF_T;
	skb_queue_tail(&port->rx_q, fp_skb(fp));
	schedule_work(&port->rx_work);
}

/* The last frame of exchange ox_id, from sid to did, with len bytes. */
static struct fc_frame *bfa_els_answer(struct fc_lport *lport, size_t len,
				       u8 r_ctl, u8 type, u32 did, u32 sid,
				       u16 ox_id, u16 rx_id)
{
	struct fc_frame_header *fh;
	struct fc_frame *fp;

	fp = fc_frame_alloc(lport, len);
	if (!fp)
		return NULL;
	fh = fc_frame_header_get(fp);
	__fc_fill_fc_hdr(fh, r_ctl, did, sid, type, BFA_FCTL_REPLY, 0);
	fh->fh_seq_id = 0;
	fh->fh_seq_cnt = 0;
	fh->fh_ox_id = htons(ox_id);
	fh->fh_rx_id = htons(rx_id);
	memset(fh + 1, 0, len);
	return fp;
}

static void bfa_els_reject(struct bfa_port *port, struct fc_lport *lport,
			   u32 did, u32 sid, u16 ox_id, u8 reason, u8 explan)
{
	struct fc_els_ls_rjt *rjt;
	struct fc_frame *fp;

	fp = bfa_els_answer(lport, sizeof(*rjt), FC_RCTL_ELS_REP, FC_TYPE_ELS,
			    did, sid, ox_id, FC_XID_UNKNOWN);
	if (!fp)
		return;
	rjt = fc_frame_payload_get(fp, sizeof(*rjt));
	rjt->er_cmd = ELS_LS_RJT;
	rjt->er_reason = reason;
	rjt->er_explan = explan;
	bfa_els_deliver(port, lport, fp);
}

/* ---- fabric login --------------------------------------------------- */

/* libfc's FLOGI or FDISC, as a LOGIN; a retry waits on the same LOGIN */
static void bfa_lps_login(struct bfa_lp *lp, struct fc_frame *fp, bool fdisc)
{
	struct bfa_port *port = lp->port;
	struct bfa_login_req req = {
		.hdr = bfa_hdr(port, BFA_MC_LPS, BFA_LPS_LOGIN),
		.tag = lp->tag,
		.pdu_size = cpu_to_be16(port->max_frame),
		.pwwn = cpu_to_be64(lp->lport->wwpn),
		.nwwn = cpu_to_be64(lp->lport->wwnn),
		.fdisc = fdisc,
	};
	unsigned long flags;
	bool send;

	spin_lock_irqsave(&port->els_lock, flags);
	lp->login_oxid = ntohs(fc_frame_header_get(fp)->fh_ox_id);
	send = !lp->login_pending ||
	       time_after(jiffies, lp->login_sent + BFA_LOGIN_RESEND);
	lp->login_pending = true;
	if (send)
		lp->login_sent = jiffies;
	spin_unlock_irqrestore(&port->els_lock, flags);
	if (send && bfa_queue_send(port, 0, &req, sizeof(req))) {
		spin_lock_irqsave(&port->els_lock, flags);
		lp->login_pending = false;
		spin_unlock_irqrestore(&port->els_lock, flags);
	}
}

/*
 * libfc's LOGO to the fabric.  A vport's login ends; the physical port's
 * lasts as long as the link (the firmware has no logout for it).  Either
 * way libfc hears the fabric's accept.
 */
static void bfa_lps_logout(struct bfa_lp *lp, struct fc_frame *fp)
{
	struct bfa_port *port = lp->port;
	struct fc_frame_header *fh = fc_frame_header_get(fp);
	struct bfa_lps_tag_req req = {
		.hdr = bfa_hdr(port, BFA_MC_LPS, BFA_LPS_LOGOUT),
		.fw_tag = lp->fw_tag,
		.pwwn = cpu_to_be64(lp->lport->wwpn),
	};
	struct fc_els_ls_acc *acc;
	struct fc_frame *ans;
	unsigned long flags;

	if (lp->tag)
		bfa_queue_send(port, 0, &req, sizeof(req));
	ans = bfa_els_answer(lp->lport, sizeof(*acc), FC_RCTL_ELS_REP,
			     FC_TYPE_ELS, ntoh24(fh->fh_s_id), FC_FID_FLOGI,
			     ntohs(fh->fh_ox_id), FC_XID_UNKNOWN);
	if (!ans)
		return;
	acc = fc_frame_payload_get(ans, sizeof(*acc));
	acc->la_cmd = ELS_LS_ACC;
	spin_lock_irqsave(&port->els_lock, flags);
	bfa_els_deliver(port, lp->lport, ans);
	spin_unlock_irqrestore(&port->els_lock, flags);
}

/* The LOGIN succeeded: the accept libfc expects of the fabric or peer. */
static void bfa_lps_accept(struct bfa_lp *lp, const struct bfa_login_rsp *rsp,
			   u16 ox_id)
{
	struct bfa_port *port = lp->port;
	struct fc_lport *lport = lp->lport;
	struct fc_els_flogi *flp;
	struct fc_frame *fp;
	u32 did = ntoh24(rsp->pid), sid = FC_FID_FLOGI;
	u16 features = 0;

	if (!rsp->f_port) {
		/* no fabric: we take the IDs, and tell the firmware ours */
		struct bfa_lps_tag_req pid = {
			.hdr = bfa_hdr(port, BFA_MC_LPS, BFA_LPS_N2N_PID),
			.fw_tag = rsp->fw_tag,
		};

		did = BFA_N2N_LOCAL;
		sid = BFA_N2N_PEER;
		hton24(pid.pid, did);
		bfa_queue_send(port, 0, &pid, 8);
	} else {
		features |= FC_SP_FT_FPORT;
	}
	if (rsp->npiv)
		features |= FC_SP_FT_NPIV_ACC;
	if (!did || did >= FC_FID_DOM_MGR) {
		dev_warn_ratelimited(&port->pdev->dev,
				     "fabric login gave N_Port ID %06x\n", did);
		bfa_els_reject(port, lport, 0, FC_FID_FLOGI, ox_id,
			       ELS_RJT_PROT, ELS_EXPL_NONE);
		return;
	}
	/* libfc knows N_Ports only */
	fc_host_port_type(lport->host) = rsp->f_port ? FC_PORTTYPE_NPORT :
						       FC_PORTTYPE_PTP;
	if (rsp->f_port)
		dev_info(&port->pdev->dev,
			 "fabric login: N_Port ID %06x, fabric %016llx\n", did,
			 be64_to_cpu(rsp->node_name));
	else
		dev_info(&port->pdev->dev,
			 "point-to-point login: N_Port ID %06x, peer %016llx\n",
			 did, be64_to_cpu(rsp->port_name));
	fp = bfa_els_answer(lport, sizeof(*flp), FC_RCTL_ELS_REP, FC_TYPE_ELS,
			    did, sid, ox_id, FC_XID_UNKNOWN);
	if (!fp)
		return;
	flp = fc_frame_payload_get(fp, sizeof(*flp));
	flp->fl_cmd = ELS_LS_ACC;
	flp->fl_csp.sp_hi_ver = BFA_PH_VERSION;
	flp->fl_csp.sp_lo_ver = BFA_PH_VERSION;
	flp->fl_csp.sp_bb_cred = rsp->bb_credit;
	flp->fl_csp.sp_features = htons(features);
	flp->fl_csp.sp_bb_data = htons(port->max_frame);
	flp->fl_csp.sp_r_a_tov = htonl(lport->r_a_tov);
	flp->fl_csp.sp_e_d_tov = htonl(lport->e_d_tov);
	flp->fl_wwpn = rsp->port_name;
	flp->fl_wwnn = rsp->node_name;
	flp->fl_cssp[2].cp_class = htons(FC_CPC_VALID | FC_CPC_SEQ);
	bfa_els_deliver(port, lport, fp);
}

static void bfa_lps_answer(struct bfa_port *port,
			   const struct bfa_login_rsp *rsp)
{
	struct bfa_lp *lp;
	u16 ox_id;

	spin_lock(&port->els_lock);
	lp = rsp->tag < BFA_LOGINS ? port->logins[rsp->tag] : NULL;
	if (!lp || !lp->login_pending) {
		dev_warn_ratelimited(&port->pdev->dev,
				     "login answer for tag %u, which waits for none\n",
				     rsp->tag);
		goto out;
	}
	lp->login_pending = false;
	lp->fw_tag = rsp->fw_tag;
	ox_id = lp->login_oxid;
	if (rsp->status == BFA_ST_OK) {
		bfa_lps_accept(lp, rsp, ox_id);
	} else if (rsp->status == BFA_ST_FABRIC_RJT) {
		bfa_els_reject(port, lp->lport, 0, FC_FID_FLOGI, ox_id,
			       rsp->rjt_reason, rsp->rjt_explan);
	} else {
		dev_dbg(&port->pdev->dev, "fabric login failed: status %u\n",
			rsp->status);
		bfa_els_reject(port, lp->lport, 0, FC_FID_FLOGI, ox_id,
			       ELS_RJT_UNAB, ELS_EXPL_NONE);
	}
out:
	spin_unlock(&port->els_lock);
}

/* ---- exchanges ------------------------------------------------------ */

/* Send frame fp as exchange tag (els_lock held). */
static int bfa_fcxp_start(struct bfa_port *port, struct fc_frame *fp,
			  unsigned int tag)
{
	struct fc_lport *lport = fr_dev(fp);
	struct bfa_lp *lp = lport_priv(lport);
	struct fc_frame_header *fh = fc_frame_header_get(fp);
	size_t len = fr_len(fp) - sizeof(*fh);
	dma_addr_t buf = port->fcxp_dma + tag * sizeof(struct bfa_fcxp_buf);
	bool want = !(ntoh24(fh->fh_f_ctl) & FC_FC_EX_CTX);
	struct bfa_fcxp_req req = {
		.hdr = bfa_hdr(port, BFA_MC_FCXP, BFA_FCXP_SEND),
		.tag = cpu_to_be16(tag),
		.max_frame = cpu_to_be16(port->max_frame),
		.class = FC_COS_CLASS3,
		.lp_tag = lp->fw_tag,
		.fh = *fh,
		.req_len = cpu_to_be32(len),
		.req_buf_len = cpu_to_be32(len),
		.rsp_max = cpu_to_be32(BFA_FCXP_RSP_MAX),
		.rsp_buf_len = cpu_to_be32(BFA_FCXP_RSP_MAX),
	};
	int err;

	if (len > FC_MAX_PAYLOAD)
		return -EMSGSIZE;
	if (want)
		req.rsp_tmo = fh->fh_type == FC_TYPE_CT ? BFA_CT_TMO_S :
							  BFA_ELS_TMO_S;
	bfa_dma_set(&req.req_addr, buf + offsetof(struct bfa_fcxp_buf, req));
	bfa_dma_set(&req.rsp_addr, buf + offsetof(struct bfa_fcxp_buf, rsp));
	memcpy(port->fcxp_buf[tag].req, fh + 1, len);
	err = bfa_queue_send(port, 0, &req, sizeof(req));
	if (err)
		return err;
	port->fcxp[tag] = (struct bfa_fcxp){
		.lport = lport, .busy = true, .want_rsp = want,
		.sid = ntoh24(fh->fh_s_id), .did = ntoh24(fh->fh_d_id),
		.ox_id = ntohs(fh->fh_ox_id), .type = fh->fh_type,
	};
	return 0;
}

/*
 * Start what waits for an exchange, while exchanges and ring space last;
 * post the receive buffers a full ring kept back.
 */
void bfa_els_kick(struct bfa_port *port)
{
	struct sk_buff *skb;
	unsigned long flags;
	unsigned int tag;
	int err;

	spin_lock_irqsave(&port->els_lock, flags);
	while ((skb = skb_peek(&port->fcxp_wait))) {
		for (tag = 0; tag < port->n_fcxp && port->fcxp[tag].busy; tag++)
			;
		if (tag == port->n_fcxp)
			break;
		err = bfa_fcxp_start(port, (struct fc_frame *)skb, tag);
		if (err == -EBUSY)
			break;		/* the next answer tries again */
		__skb_unlink(skb, &port->fcxp_wait);
		if (err)
			dev_dbg(&port->pdev->dev, "frame not sent: %d\n", err);
		kfree_skb(skb);
	}
	for (tag = find_first_zero_bit(port->uf_posted, port->n_uf);
	     tag < port->n_uf;
	     tag = find_next_zero_bit(port->uf_posted, port->n_uf, tag + 1)) {
		struct bfa_uf_post req = {
			.hdr = bfa_hdr(port, BFA_MC_UF, BFA_UF_POST),
			.tag = cpu_to_le16(tag),
			.buf_len = cpu_to_be16(sizeof(struct bfa_uf_buf)),
			.len = cpu_to_be32(sizeof(struct bfa_uf_buf)),
		};

		bfa_dma_set(&req.addr, port->uf_dma +
			    tag * sizeof(struct bfa_uf_buf));
		if (bfa_queue_send(port, 0, &req, sizeof(req)))
			break;
		set_bit(tag, port->uf_posted);
	}
	spin_unlock_irqrestore(&port->els_lock, flags);
}

static void bfa_fcxp_done(struct bfa_port *port,
			  const struct bfa_fcxp_rsp *rsp)
{
	unsigned int tag = be16_to_cpu(rsp->tag);
	size_t len = be32_to_cpu(rsp->rsp_len);
	struct fc_frame *fp = NULL;
	struct bfa_fcxp *x;
	u8 r_ctl;

	spin_lock(&port->els_lock);
	if (tag >= port->n_fcxp || !port->fcxp[tag].busy) {
		dev_warn_ratelimited(&port->pdev->dev,
				     "answer to exchange %u, which is not in flight\n",
				     tag);
		goto out;
	}
	x = &port->fcxp[tag];
	if (!x->want_rsp || x->orphan || !x->lport)
		goto free;
	if (rsp->status == BFA_ST_OK && len > BFA_FCXP_RSP_MAX) {
		dev_warn_ratelimited(&port->pdev->dev,
				     "answer of %zu bytes to exchange %u\n",
				     len, tag);
	} else if (rsp->status == BFA_ST_OK) {
		r_ctl = x->type == FC_TYPE_ELS ? FC_RCTL_ELS_REP :
						 FC_RCTL_DD_SOL_CTL;
		fp = bfa_els_answer(x->lport, len, r_ctl, x->type, x->sid,
				    x->did, x->ox_id, ntohs(rsp->fh.fh_rx_id));
		if (fp)
			memcpy(fc_frame_header_get(fp) + 1,
			       port->fcxp_buf[tag].rsp, len);
	}
	if (fp)
		bfa_els_deliver(port, x->lport, fp);
	else if (x->type == FC_TYPE_ELS)
		/* no answer, or none to use: the request was not done */
		bfa_els_reject(port, x->lport, x->sid, x->did, x->ox_id,
			       ELS_RJT_UNAB, ELS_EXPL_NONE);
	/* a CT request that failed: libfc's timer ends its exchange */
free:
	x->busy = false;
out:
	spin_unlock(&port->els_lock);
	bfa_els_kick(port);
}

/* ---- received frames ------------------------------------------------ */

static void bfa_uf_received(struct bfa_port *port,
			    const struct bfa_uf_rcvd *m)
{
	unsigned int tag = le16_to_cpu(m->tag);
	size_t len = be16_to_cpu(m->xfr_len);
	struct fc_frame *fp = NULL;
	struct fc_lport *lport;

	spin_lock(&port->els_lock);
	if (tag >= port->n_uf || !test_and_clear_bit(tag, port->uf_posted)) {
		dev_warn_ratelimited(&port->pdev->dev,
				     "frame in receive buffer %u, which is not posted\n",
				     tag);
		goto out;
	}
	lport = port->lport;
	if (len < sizeof(struct fc_frame_header) ||
	    len > sizeof(struct bfa_uf_buf)) {
		dev_warn_ratelimited(&port->pdev->dev,
				     "received frame of %zu bytes\n", len);
	} else if (lport) {
		fp = fc_frame_alloc(lport, len - sizeof(struct fc_frame_header));
	}
	if (fp) {
		memcpy(fr_hdr(fp), port->uf_buf[tag].frame, len);
		/* the firmware logs in to the fabric and the peer itself */
		if (fc_frame_rctl(fp) == FC_RCTL_ELS_REQ &&
		    fc_frame_payload_op(fp) == ELS_FLOGI)
			fc_frame_free(fp);
		else
			bfa_els_deliver(port, lport, fp);
	}
out:
	spin_unlock(&port->els_lock);
	bfa_els_kick(port);
}

/* A message of the login, exchange or receive classes (interrupt). */
void bfa_els_msg(struct bfa_port *port, const void *msg)
{
	const struct bfa_msg_hdr *hdr = msg;

	if (hdr->class == BFA_MC_LPS && hdr->id == BFA_REPLY(BFA_LPS_LOGIN))
		bfa_lps_answer(port, msg);
	else if (hdr->class == BFA_MC_FCXP &&
		 hdr->id == BFA_REPLY(BFA_FCXP_SEND))
		bfa_fcxp_done(port, msg);
	else if (hdr->class == BFA_MC_UF && hdr->id == BFA_UF_RECEIVED)
		bfa_uf_received(port, msg);
	/* logout answers carry nothing libfc waits for */
}

/* ---- the libfc side ------------------------------------------------- */

/* Drop what is in flight or waiting for lport that matches sid/did/ox_id. */
static void bfa_els_drop(struct bfa_port *port, struct fc_lport *lport,
			 u32 sid, u32 did, int ox_id)
{
	struct sk_buff *skb, *tmp;
	unsigned long flags;
	unsigned int tag;

	spin_lock_irqsave(&port->els_lock, flags);
	for (tag = 0; tag < BFA_FCXP_N; tag++) {
		struct bfa_fcxp *x = &port->fcxp[tag];

		if (x->busy && x->lport == lport && (!sid || x->sid == sid) &&
		    (!did || x->did == did) && (ox_id < 0 || x->ox_id == ox_id))
			x->orphan = true;
	}
	skb_queue_walk_safe(&port->fcxp_wait, skb, tmp) {
		struct fc_frame *fp = (struct fc_frame *)skb;

		if (fr_dev(fp) == lport &&
		    (!sid || fc_frame_sid(fp) == sid) &&
		    (!did || fc_frame_did(fp) == did) &&
		    (ox_id < 0 ||
		     ntohs(fc_frame_header_get(fp)->fh_ox_id) == ox_id)) {
			__skb_unlink(skb, &port->fcxp_wait);
			kfree_skb(skb);
		}
	}
	spin_unlock_irqrestore(&port->els_lock, flags);
}

/* libfc's tt.frame_send: under libfc's locks, so nothing here sleeps. */
int bfa_els_frame_send(struct fc_lport *lport, struct fc_frame *fp)
{
	struct bfa_lp *lp = lport_priv(lport);
	struct bfa_port *port = lp->port;
	struct fc_frame_header *fh = fc_frame_header_get(fp);
	u8 op = fc_frame_payload_op(fp);
	unsigned long flags;

	if (!lport->link_up || !READ_ONCE(port->configured))
		goto drop;
	if (fh->fh_type == FC_TYPE_BLS) {
		/* an abort of our exchange: the firmware ends its own */
		if (fh->fh_r_ctl == FC_RCTL_BA_ABTS)
			bfa_els_drop(port, lport, 0, 0, ntohs(fh->fh_ox_id));
		goto drop;
	}
	if (fh->fh_r_ctl == FC_RCTL_ELS_REQ &&
	    ntoh24(fh->fh_d_id) == FC_FID_FLOGI) {
		if (op == ELS_FLOGI || op == ELS_FDISC) {
			bfa_lps_login(lp, fp, op == ELS_FDISC);
			goto drop;
		}
		if (op == ELS_LOGO) {
			bfa_lps_logout(lp, fp);
			goto drop;
		}
	}
	fr_dev(fp) = lport;
	spin_lock_irqsave(&port->els_lock, flags);
	__skb_queue_tail(&port->fcxp_wait, fp_skb(fp));
	spin_unlock_irqrestore(&port->els_lock, flags);
	bfa_els_kick(port);
	return 0;
drop:
	fc_frame_free(fp);
	return 0;
}

/*
 * libfc's tt.exch_mgr_reset: its exchanges end, so a late answer must not
 * find a new exchange that reuses the ID.
 */
void bfa_els_exch_reset(struct fc_lport *lport, u32 sid, u32 did)
{
	struct bfa_lp *lp = lport_priv(lport);

	bfa_els_drop(lp->port, lport, sid, did, -1);
	fc_exch_mgr_reset(lport, sid, did);
}

/*
 * @up: the rings are configured again; take the firmware's limits and
 * post every buffer.  Else the firmware forgot every exchange, login
 * and buffer (IOC down).
 */
void bfa_els_rings(struct bfa_port *port, bool up)
{
	const struct bfa_cfg_rsp *cfg = &port->shared->cfg;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&port->els_lock, flags);
	for (i = 0; i < BFA_FCXP_N; i++)
		port->fcxp[i].busy = false;
	for (i = 0; i < BFA_LOGINS; i++)
		if (port->logins[i])
			port->logins[i]->login_pending = false;
	bitmap_zero(port->uf_posted, BFA_UF_N);
	port->n_fcxp = 0;
	port->n_uf = 0;
	if (up) {
		port->n_fcxp = min_t(unsigned int, BFA_FCXP_N,
				     be16_to_cpu(cfg->num_fcxps));
		port->n_uf = min_t(unsigned int, BFA_UF_N,
				   be16_to_cpu(cfg->num_ufs));
	}
	spin_unlock_irqrestore(&port->els_lock, flags);
	if (!up)
		return;
	if (!port->n_fcxp || !port->n_uf)
		dev_warn(&port->pdev->dev,
			 "firmware offers %u exchanges and %u receive buffers\n",
			 port->n_fcxp, port->n_uf);
	bfa_els_kick(port);
}

/* lport goes away: nothing of the driver's refers to it afterwards. */
void bfa_els_forget(struct bfa_port *port, struct fc_lport *lport)
{
	struct bfa_lp *lp = lport_priv(lport);
	struct sk_buff *skb, *tmp;
	unsigned long flags;
	unsigned int tag;

	bfa_els_drop(port, lport, 0, 0, -1);
	spin_lock_irqsave(&port->els_lock, flags);
	if (port->logins[lp->tag] == lp)
		port->logins[lp->tag] = NULL;
	for (tag = 0; tag < BFA_FCXP_N; tag++)
		if (port->fcxp[tag].lport == lport)
			port->fcxp[tag].lport = NULL;
	spin_unlock_irqrestore(&port->els_lock, flags);

	cancel_work_sync(&port->rx_work);
	spin_lock_irqsave(&port->rx_q.lock, flags);
	skb_queue_walk_safe(&port->rx_q, skb, tmp) {
		if (fr_dev((struct fc_frame *)skb) == lport) {
			__skb_unlink(skb, &port->rx_q);
			kfree_skb(skb);
		}
	}
	spin_unlock_irqrestore(&port->rx_q.lock, flags);
	if (!skb_queue_empty(&port->rx_q))
		schedule_work(&port->rx_work);
}
