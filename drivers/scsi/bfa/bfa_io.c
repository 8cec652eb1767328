// SPDX-License-Identifier: GPL-2.0
/*
 * Brocade Fibre Channel HBA driver: targets, commands, task management.
 *
 * Once libfc has logged in to an FCP target, the firmware is told of it:
 * a remote port with the login's parameters, then the I-T nexus on it.
 * Only then may commands go; each carries its FCP_CMND and the data's
 * scatter-gather list, and the firmware answers each with status,
 * residual and sense.  A command the midlayer gives up on is aborted; a
 * LUN or target reset cleans up what was in its scope; a host reset
 * restarts the IOC.  Every wait for the firmware is bounded, and every
 * tag and handle the firmware sends back is checked before it is used.
 */
#include <linux/bitfield.h>
#include <linux/dmapool.h>
#include <scsi/scsi.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi_transport_fc.h>

#include "bfa.h"

#define BFA_FW_WAIT		(5 * HZ)	/* remote port and nexus */
#define BFA_ABORT_WAIT		(10 * HZ)
#define BFA_TM_SECS		30		/* the firmware's bound */
#define BFA_TM_WAIT		((BFA_TM_SECS + 5) * HZ)
#define BFA_ITN_SLER		0x83	/* the nexus needs a new login */

struct bfa_sg_page {
	struct bfa_sge_le e[BFA_SG_PAGE_SLOTS];
	u8 rsvd[32];
};

static_assert(sizeof(struct bfa_rport_req) == 20 &&
	      sizeof(struct bfa_rport_rsp) == 20);
static_assert(sizeof(struct bfa_io_req) == 84 &&
	      sizeof(struct bfa_io_rsp) == 32);
static_assert(sizeof(struct bfa_tm_req) == 20 &&
	      sizeof(struct bfa_sg_page) == 128);

int bfa_io_alloc(struct bfa_port *port)
{
	struct device *dev = &port->pdev->dev;

	mutex_init(&port->tgt_lock);
	spin_lock_init(&port->io_lock);
	init_waitqueue_head(&port->io_wq);
	port->sense = dmam_alloc_coherent(dev, BFA_IOS * BFA_SENSE_SLOT,
					  &port->sense_dma, GFP_KERNEL);
	port->sg_pool = dmam_pool_create("bfa_sg", dev, BFA_SG_PAGES *
					 sizeof(struct bfa_sg_page),
					 sizeof(struct bfa_sg_page), 0);
	return port->sense && port->sg_pool ? 0 : -ENOMEM;
}

/* The tags of lp's host: the port's first ones, or a vport's slice. */
unsigned int bfa_io_share(struct bfa_lp *lp)
{
	unsigned int total = lp->port->n_io, base = 0, n = BFA_IO_PORT;

	if (lp->tag) {
		base = BFA_IO_PORT + (lp->tag - 1) * BFA_IO_VPORT;
		n = BFA_IO_VPORT;
	}
	lp->io_base = base;
	lp->n_io = base < total ? min(n, total - base) : 0;
	return lp->n_io;
}

static struct bfa_port *bfa_io_port(struct Scsi_Host *shost)
{
	struct bfa_lp *lp = lport_priv(shost_priv(shost));

	return lp->port;
}

/* ---- remote ports and their nexus ----------------------------------- */

/* The handle of rdata (NULL: a free one), or NULL. */
static struct bfa_tgt *bfa_tgt_find(struct bfa_port *port,
				    struct fc_rport_priv *rdata)
{
	unsigned int h;

	for (h = 1; h < BFA_TGTS; h++)
		if (port->tgt[h].rdata == rdata)
			return &port->tgt[h];
	return NULL;
}

/* Send msg on ring q and wait for class's answer for t (tgt_lock held). */
static int bfa_tgt_call(struct bfa_port *port, struct bfa_tgt *t,
			unsigned int q, void *msg, size_t len, u8 class)
{
	int err;

	spin_lock_irq(&port->io_lock);
	t->wait = class;
	t->status = 0;
	spin_unlock_irq(&port->io_lock);
	err = bfa_queue_send(port, q, msg, len);
	if (!err && !wait_event_timeout(port->io_wq, !READ_ONCE(t->wait),
					BFA_FW_WAIT))
		err = -ETIMEDOUT;
	spin_lock_irq(&port->io_lock);
	if (!err && t->status)
		err = -EIO;
	/* the rings went down under the wait */
	if (!err && !port->configured)
		err = -ENOLINK;
	t->wait = 0;
	spin_unlock_irq(&port->io_lock);
	return err;
}

static void bfa_tgt_answer(struct bfa_port *port, u8 class, __le16 handle,
			   u8 status, const __le16 *fw_handle)
{
	unsigned int h = le16_to_cpu(handle);
	struct bfa_tgt *t;

	spin_lock(&port->io_lock);
	if (h == 0 || h >= BFA_TGTS || port->tgt[h].wait != class) {
		dev_warn_ratelimited(&port->pdev->dev,
				     "answer for remote port handle %u, which waits for none\n",
				     h);
	} else {
		t = &port->tgt[h];
		t->status = status;
		if (fw_handle)
			t->fw_handle = le16_to_cpu(*fw_handle);
		t->wait = 0;
		wake_up(&port->io_wq);
	}
	spin_unlock(&port->io_lock);
}

static bool bfa_io_of(struct scsi_cmnd *sc, struct bfa_tgt *t,
		      struct scsi_device *sdev)
{
	struct bfa_io *io = scsi_cmd_priv(sc);

	return io->tgt == t && (!sdev || sc->device == sdev);
}

static bool bfa_io_any(struct bfa_port *port, struct bfa_tgt *t,
		       struct scsi_device *sdev)
{
	bool any = false;
	unsigned int tag;

	spin_lock_irq(&port->io_lock);
	for (tag = 0; tag < BFA_IOS && !any; tag++)
		any = port->io[tag] && bfa_io_of(port->io[tag], t, sdev);
	spin_unlock_irq(&port->io_lock);
	return any;
}

/* Abort or clean up the command of tag (io_lock held); it ends with result. */
static int bfa_io_abort_locked(struct bfa_port *port, unsigned int tag,
			       u8 id, int result)
{
	struct bfa_io *io = scsi_cmd_priv(port->io[tag]);
	struct bfa_io_abort_req req = {
		.hdr = bfa_hdr(port, BFA_MC_IO, id),
		.tag = cpu_to_be16(tag),
	};

	io->aborting = true;
	io->abort_result = result;
	req.abort_tag = cpu_to_le16(++io->abort_tag);
	return bfa_queue_send(port, 1, &req, sizeof(req));
}

/* End every command for t (on sdev, unless NULL) in the firmware. */
static bool bfa_io_cleanup(struct bfa_port *port, struct bfa_tgt *t,
			   struct scsi_device *sdev, int result)
{
	unsigned int tag;

	spin_lock_irq(&port->io_lock);
	for (tag = 0; tag < BFA_IOS; tag++)
		if (port->io[tag] && bfa_io_of(port->io[tag], t, sdev))
			bfa_io_abort_locked(port, tag, BFA_IO_CLEANUP, result);
	spin_unlock_irq(&port->io_lock);
	return wait_event_timeout(port->io_wq, !bfa_io_any(port, t, sdev),
				  BFA_ABORT_WAIT);
}

/* The firmware lets go of t: no command, no nexus, no remote port. */
static void bfa_tgt_delete(struct bfa_port *port, struct bfa_tgt *t)
{
	struct bfa_itn_req itn = {
		.hdr = bfa_hdr(port, BFA_MC_ITN, BFA_DELETE),
		.fw_handle = cpu_to_le16(t->fw_handle),
	};
	struct bfa_rport_req rp = {
		.hdr = bfa_hdr(port, BFA_MC_RPORT, BFA_DELETE),
		.handle = cpu_to_le16(t->fw_handle),
	};

	spin_lock_irq(&port->io_lock);
	t->online = false;
	spin_unlock_irq(&port->io_lock);
	if (!bfa_io_cleanup(port, t, NULL, DID_TRANSPORT_DISRUPTED << 16))
		dev_warn(&port->pdev->dev,
			 "commands to %06x not cleaned up by the firmware\n",
			 t->pid);
	itn.class = ++t->seq;
	if (t->fw_itn && bfa_tgt_call(port, t, 1, &itn, sizeof(itn),
				      BFA_MC_ITN))
		dev_dbg(&port->pdev->dev, "nexus to %06x not deleted\n", t->pid);
	if (t->fw_rport && bfa_tgt_call(port, t, 0, &rp, sizeof(rp),
					BFA_MC_RPORT))
		dev_dbg(&port->pdev->dev, "remote port %06x not deleted\n",
			t->pid);
	t->fw_itn = false;
	t->fw_rport = false;
	t->rdata = NULL;
}

/* The firmware learns of the target libfc logged in to. */
static int bfa_tgt_create(struct bfa_port *port, struct bfa_tgt *t,
			  struct fc_lport *lport, struct fc_rport_priv *rdata)
{
	struct bfa_lp *lp = lport_priv(lport);
	struct bfa_rport_req rp = {
		.hdr = bfa_hdr(port, BFA_MC_RPORT, BFA_CREATE),
		.handle = cpu_to_le16(t - port->tgt),
		.max_frame = cpu_to_be16(rdata->maxframe_size),
		.lp_tag = lp->fw_tag,
		.cisc = !!(rdata->sp_features & FC_SP_FT_CIRO),
		.class = FC_COS_CLASS3,
	};
	struct bfa_itn_req itn = {
		.hdr = bfa_hdr(port, BFA_MC_ITN, BFA_CREATE),
		.class = FC_COS_CLASS3,
		.seq_rec = !!(rdata->flags & FC_RP_FLAGS_RETRY),
	};
	int err;

	hton24(rp.pid, rdata->ids.port_id);
	hton24(rp.local_pid, lport->port_id);
	err = bfa_tgt_call(port, t, 0, &rp, sizeof(rp), BFA_MC_RPORT);
	if (err)
		return err;
	t->fw_rport = true;
	itn.fw_handle = cpu_to_le16(t->fw_handle);
	itn.seq = ++t->seq;
	err = bfa_tgt_call(port, t, 1, &itn, sizeof(itn), BFA_MC_ITN);
	if (err)
		return err;
	t->fw_itn = true;
	return 0;
}

/* libfc's tt.rport_event_callback, on its remote port worker. */
void bfa_io_rport_event(struct fc_lport *lport, struct fc_rport_priv *rdata,
			enum fc_rport_event event)
{
	struct bfa_lp *lp = lport_priv(lport);
	struct bfa_port *port = lp->port;
	struct bfa_rport_priv *rp = rdata->rport ? rdata->rport->dd_data : NULL;
	struct bfa_tgt *t;
	int err;

	mutex_lock(&port->tgt_lock);
	t = bfa_tgt_find(port, rdata);
	switch (event) {
	case RPORT_EV_READY:
		if (!(rdata->ids.roles & FC_RPORT_ROLE_FCP_TARGET) ||
		    rdata->spp_type != FC_TYPE_FCP || !rp)
			break;
		if (t && t->online) {
			/* logged in again (ADISC, PRLI): nothing changes */
			rp->tgt = t;
			break;
		}
		if (t)
			bfa_tgt_delete(port, t);
		t = bfa_tgt_find(port, NULL);
		if (!t) {
			dev_warn(&port->pdev->dev,
				 "no handle left for target %06x\n",
				 rdata->ids.port_id);
			fc_rport_logoff(rdata);
			break;
		}
		t->rdata = rdata;
		t->pid = rdata->ids.port_id;
		err = bfa_tgt_create(port, t, lport, rdata);
		if (err) {
			dev_warn(&port->pdev->dev,
				 "firmware did not take target %06x: %d\n",
				 t->pid, err);
			bfa_tgt_delete(port, t);
			fc_rport_logoff(rdata);
			break;
		}
		rp->tgt = t;
		spin_lock_irq(&port->io_lock);
		t->online = true;
		spin_unlock_irq(&port->io_lock);
		break;
	case RPORT_EV_FAILED:
	case RPORT_EV_STOP:
	case RPORT_EV_LOGO:
		if (rp)
			rp->tgt = NULL;
		if (t)
			bfa_tgt_delete(port, t);
		break;
	default:
		break;
	}
	mutex_unlock(&port->tgt_lock);
}

/* ---- commands ------------------------------------------------------- */

/* One element: in the request its words are big-endian, on a page little. */
static void bfa_sge(void *e, bool inline_sge, u32 flags, u32 len,
		    dma_addr_t addr)
{
	u32 w[3] = {
		FIELD_PREP(BFA_SGE_FLAGS, flags) | FIELD_PREP(BFA_SGE_LEN, len),
		lower_32_bits(addr), upper_32_bits(addr),
	};
	__le32 *le = e;
	int i;

	if (inline_sge) {
		cpu_to_be32_array(e, w, ARRAY_SIZE(w));
		return;
	}
	for (i = 0; i < ARRAY_SIZE(w); i++)
		le[i] = cpu_to_le32(w[i]);
}

/*
 * The data's list: the first element in the request, the rest on pages
 * of seven, each page's last slot pointing on (and summing its lengths).
 */
static int bfa_io_sg(struct bfa_port *port, struct scsi_cmnd *sc,
		     struct bfa_io_req *req)
{
	struct bfa_io *io = scsi_cmd_priv(sc);
	int i, nsg = scsi_dma_map(sc);
	struct scatterlist *sg = scsi_sglist(sc);
	unsigned int slot = 0, sum = 0;
	struct bfa_sg_page *pg;
	dma_addr_t pg_dma;

	io->sg = NULL;
	if (nsg < 0)
		return nsg;
	if (!nsg) {
		bfa_sge(&req->sge[0], true, BFA_SGE_LINK, 0, 0);
		return 0;
	}
	if (nsg == 1) {
		bfa_sge(&req->sge[0], true, BFA_SGE_LAST, sg_dma_len(sg),
			sg_dma_address(sg));
		bfa_sge(&req->sge[1], true, BFA_SGE_LINK, sg_dma_len(sg), 0);
		return 0;
	}
	pg = dma_pool_alloc(port->sg_pool, GFP_ATOMIC, &pg_dma);
	if (!pg) {
		scsi_dma_unmap(sc);
		return -ENOMEM;
	}
	io->sg = pg;
	io->sg_dma = pg_dma;
	bfa_sge(&req->sge[0], true, BFA_SGE_PAGE_END, sg_dma_len(sg),
		sg_dma_address(sg));
	bfa_sge(&req->sge[1], true, BFA_SGE_LINK, sg_dma_len(sg), pg_dma);
	for_each_sg(sg_next(sg), sg, nsg - 1, i) {
		bool last = i == nsg - 2;
		bool full = !last && slot == BFA_SG_PAGE_SLOTS - 2;
		u32 flags = last ? BFA_SGE_LAST :
			    full ? BFA_SGE_PAGE_END : BFA_SGE_DATA;

		bfa_sge(&pg->e[slot++], false, flags, sg_dma_len(sg),
			sg_dma_address(sg));
		sum += sg_dma_len(sg);
		if (last || full) {
			pg_dma += sizeof(*pg);
			bfa_sge(&pg->e[slot], false, BFA_SGE_LINK, sum,
				last ? 0 : pg_dma);
			pg++;
			slot = 0;
			sum = 0;
		}
	}
	return 0;
}

static void bfa_io_end(struct bfa_port *port, struct scsi_cmnd *sc)
{
	struct bfa_io *io = scsi_cmd_priv(sc);

	scsi_dma_unmap(sc);
	if (io->sg)
		dma_pool_free(port->sg_pool, io->sg, io->sg_dma);
	io->sg = NULL;
	scsi_done(sc);
}

static int bfa_io_queuecommand(struct Scsi_Host *shost, struct scsi_cmnd *sc)
{
	struct bfa_port *port = bfa_io_port(shost);
	struct fc_rport *rport = starget_to_rport(scsi_target(sc->device));
	struct bfa_rport_priv *rp = rport->dd_data;
	struct bfa_io *io = scsi_cmd_priv(sc);
	struct bfa_lp *lp = lport_priv(shost_priv(shost));
	unsigned int tag = lp->io_base + scsi_cmd_to_rq(sc)->tag;
	enum dma_data_direction dir = sc->sc_data_direction;
	unsigned int len = scsi_bufflen(sc);
	struct bfa_io_req req = { };
	unsigned long flags;
	struct bfa_tgt *t;
	int err;

	/* a blocked or gone remote port, or a command we cannot carry */
	err = fc_remote_port_chkready(rport);
	if (!err && WARN_ON_ONCE(tag - lp->io_base >= lp->n_io ||
				 sc->cmd_len > 16))
		err = DID_ERROR << 16;
	if (err) {
		sc->result = err;
		scsi_done(sc);
		return 0;
	}
	t = READ_ONCE(rp->tgt);
	if (!t || !READ_ONCE(t->online))
		return SCSI_MLQUEUE_TARGET_BUSY;
	io->tgt = t;
	io->aborting = false;
	if (bfa_io_sg(port, sc, &req))
		return SCSI_MLQUEUE_HOST_BUSY;
	switch (sc->sc_data_direction) {
	case DMA_FROM_DEVICE:
		req.hdr = bfa_hdr(port, BFA_MC_IO_READ, 0);
		req.fcp.fc_flags = FCP_CFL_RDDATA;
		break;
	case DMA_TO_DEVICE:
		req.hdr = bfa_hdr(port, BFA_MC_IO_WRITE, 0);
		req.fcp.fc_flags = FCP_CFL_WRDATA;
		break;
	default:
		req.hdr = bfa_hdr(port, BFA_MC_IO_NODATA, 0);
		break;
	}
	req.tag = cpu_to_be16(tag);
	req.fw_handle = cpu_to_le16(t->fw_handle);
	int_to_scsilun(sc->device->lun, &req.fcp.fc_lun);
	memcpy(req.fcp.fc_cdb, sc->cmnd, sc->cmd_len);
	req.fcp.fc_dl = cpu_to_be32(scsi_bufflen(sc));

	spin_lock_irqsave(&port->io_lock, flags);
	if (port->io[tag] || !t->online) {
		/* the tag's last command is still the firmware's */
		err = port->io[tag] ? SCSI_MLQUEUE_HOST_BUSY :
				      SCSI_MLQUEUE_TARGET_BUSY;
	} else {
		port->io[tag] = sc;
		err = bfa_queue_send(port, 1, &req, sizeof(req));
		if (err) {
			port->io[tag] = NULL;
			err = SCSI_MLQUEUE_HOST_BUSY;
		}
	}
	spin_unlock_irqrestore(&port->io_lock, flags);
	if (err) {
		scsi_dma_unmap(sc);
		if (io->sg)
			dma_pool_free(port->sg_pool, io->sg, io->sg_dma);
		io->sg = NULL;
		return err;
	}
	/*
	 * what fc_host's statistics count (libfc's FCP layer is not used);
	 * the command may have ended already: only what was noted before
	 */
	if (dir == DMA_FROM_DEVICE) {
		this_cpu_inc(lp->lport->stats->InputRequests);
		this_cpu_add(lp->lport->stats->InputBytes, len);
	} else if (dir == DMA_TO_DEVICE) {
		this_cpu_inc(lp->lport->stats->OutputRequests);
		this_cpu_add(lp->lport->stats->OutputBytes, len);
	} else {
		this_cpu_inc(lp->lport->stats->ControlRequests);
	}
	return 0;
}

/* What a full answer says of the command. */
static void bfa_io_result(struct bfa_port *port, struct scsi_cmnd *sc,
			  const struct bfa_io_rsp *rsp, unsigned int tag)
{
	unsigned int host = DID_OK, resid = be32_to_cpu(rsp->residue);
	u8 status = rsp->scsi_status;

	switch (rsp->io_status) {
	case BFA_IOS_OK:
		break;
	case BFA_IOS_TIMEDOUT:
		host = DID_TIME_OUT;
		break;
	default:
		host = DID_ERROR;
		break;
	}
	if (host == DID_OK && status == SAM_STAT_CHECK_CONDITION)
		memcpy(sc->sense_buffer, port->sense + tag * BFA_SENSE_SLOT,
		       min_t(unsigned int, rsp->sense_len,
			     SCSI_SENSE_BUFFERSIZE));
	if (host == DID_OK && rsp->resid_flags == BFA_RESID_UNDER) {
		resid = min(resid, scsi_bufflen(sc));
		scsi_set_resid(sc, resid);
		if (status == SAM_STAT_GOOD &&
		    scsi_bufflen(sc) - resid < sc->underflow)
			host = DID_ERROR;
	} else if (host == DID_OK && rsp->resid_flags == BFA_RESID_OVER &&
		   status == SAM_STAT_GOOD) {
		host = DID_ERROR;
	}
	sc->result = host << 16 | status;
}

/* The firmware is done with a command: good, full answer, or aborted. */
static void bfa_io_answer(struct bfa_port *port, const struct bfa_io_rsp *rsp,
			  bool good)
{
	unsigned int tag = be16_to_cpu(rsp->tag);
	bool aborted = !good && (rsp->io_status == BFA_IOS_HOST_ABORTED ||
				 rsp->io_status == BFA_IOS_UTAG);
	struct scsi_cmnd *sc;
	struct bfa_io *io;

	spin_lock(&port->io_lock);
	sc = tag < BFA_IOS ? port->io[tag] : NULL;
	if (!sc) {
		spin_unlock(&port->io_lock);
		dev_warn_ratelimited(&port->pdev->dev,
				     "answer for I/O tag %u, which is not in flight\n",
				     tag);
		return;
	}
	io = scsi_cmd_priv(sc);
	/* while an abort is out only its own answer ends the command */
	if (io->aborting != aborted ||
	    (aborted && le16_to_cpu(rsp->abort_tag) != io->abort_tag)) {
		spin_unlock(&port->io_lock);
		return;
	}
	port->io[tag] = NULL;
	spin_unlock(&port->io_lock);

	scsi_set_resid(sc, 0);
	if (aborted) {
		sc->result = io->abort_result;
		wake_up(&port->io_wq);
	} else if (good) {
		sc->result = DID_OK << 16;
	} else {
		bfa_io_result(port, sc, rsp, tag);
	}
	bfa_io_end(port, sc);
}

static void bfa_tm_answer(struct bfa_port *port, const struct bfa_tm_rsp *rsp)
{
	unsigned int tag = be16_to_cpu(rsp->tag);

	spin_lock(&port->io_lock);
	if (tag >= BFA_TMS || !port->tm[tag].busy || port->tm[tag].done) {
		dev_warn_ratelimited(&port->pdev->dev,
				     "answer for task management tag %u, which is not in flight\n",
				     tag);
	} else {
		port->tm[tag].status = rsp->status;
		port->tm[tag].done = true;
		wake_up(&port->io_wq);
	}
	spin_unlock(&port->io_lock);
}

/* A message of the remote port, nexus, I/O or TM classes (interrupt). */
void bfa_io_msg(struct bfa_port *port, const void *msg)
{
	const struct bfa_rport_rsp *rp = msg;
	const struct bfa_handle_rsp *h = msg;

	switch (h->hdr.class) {
	case BFA_MC_IO_GOOD:
	case BFA_MC_IO:
		bfa_io_answer(port, msg, h->hdr.class == BFA_MC_IO_GOOD);
		break;
	case BFA_MC_TM:
		bfa_tm_answer(port, msg);
		break;
	case BFA_MC_RPORT:
		if (h->hdr.id == BFA_REPLY(BFA_CREATE))
			bfa_tgt_answer(port, BFA_MC_RPORT, rp->handle,
				       rp->status, &rp->fw_handle);
		else if (h->hdr.id == BFA_REPLY(BFA_DELETE))
			bfa_tgt_answer(port, BFA_MC_RPORT, h->handle,
				       h->status, NULL);
		break;
	case BFA_MC_ITN:
		if (h->hdr.id == BFA_REPLY(BFA_CREATE) ||
		    h->hdr.id == BFA_REPLY(BFA_DELETE))
			bfa_tgt_answer(port, BFA_MC_ITN, h->handle, h->status,
				       NULL);
		else if (h->hdr.id == BFA_ITN_SLER)
			dev_warn_ratelimited(&port->pdev->dev,
					     "firmware asks for a new login to remote port handle %u\n",
					     le16_to_cpu(h->handle));
		break;
	}
}

/* The IOC went down: every command ends, the targets wait for libfc. */
void bfa_io_flush(struct bfa_port *port)
{
	struct scsi_cmnd *sc;
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < BFA_IOS; i++) {
		spin_lock_irqsave(&port->io_lock, flags);
		sc = port->io[i];
		port->io[i] = NULL;
		spin_unlock_irqrestore(&port->io_lock, flags);
		if (!sc)
			continue;
		sc->result = DID_TRANSPORT_DISRUPTED << 16;
		if (((struct bfa_io *)scsi_cmd_priv(sc))->aborting)
			sc->result = ((struct bfa_io *)scsi_cmd_priv(sc))->abort_result;
		bfa_io_end(port, sc);
	}
	spin_lock_irqsave(&port->io_lock, flags);
	for (i = 1; i < BFA_TGTS; i++) {
		port->tgt[i].online = false;
		port->tgt[i].fw_itn = false;
		port->tgt[i].fw_rport = false;
	}
	for (i = 0; i < BFA_TMS; i++)
		if (port->tm[i].busy && !port->tm[i].done) {
			port->tm[i].status = FCP_TMF_FAILED;
			port->tm[i].done = true;
		}
	spin_unlock_irqrestore(&port->io_lock, flags);
	wake_up(&port->io_wq);
}

/* ---- error handling ------------------------------------------------- */

static bool bfa_io_still(struct bfa_port *port, unsigned int tag,
			 struct scsi_cmnd *sc)
{
	bool still;

	spin_lock_irq(&port->io_lock);
	still = port->io[tag] == sc;
	spin_unlock_irq(&port->io_lock);
	return still;
}

static int bfa_io_eh_abort(struct scsi_cmnd *sc)
{
	struct bfa_lp *lp = lport_priv(shost_priv(sc->device->host));
	struct bfa_port *port = lp->port;
	unsigned int tag = lp->io_base + scsi_cmd_to_rq(sc)->tag;
	int err;

	err = fc_block_scsi_eh(sc);
	if (err)
		return err;
	spin_lock_irq(&port->io_lock);
	if (tag >= BFA_IOS || port->io[tag] != sc) {
		spin_unlock_irq(&port->io_lock);
		return SUCCESS;		/* it ended meanwhile */
	}
	err = bfa_io_abort_locked(port, tag, BFA_IO_ABORT, DID_ABORT << 16);
	spin_unlock_irq(&port->io_lock);
	if (!err && wait_event_timeout(port->io_wq,
				       !bfa_io_still(port, tag, sc),
				       BFA_ABORT_WAIT)) {
		scmd_printk(KERN_INFO, sc, "command aborted\n");
		return SUCCESS;
	}
	scmd_printk(KERN_WARNING, sc, "firmware did not abort the command\n");
	return FAILED;
}

/* A LUN (sdev) or target reset through the firmware, then the cleanup. */
static int bfa_io_tm(struct scsi_cmnd *sc, struct scsi_device *sdev, u8 flags)
{
	struct bfa_port *port = bfa_io_port(sc->device->host);
	struct fc_rport *rport = starget_to_rport(scsi_target(sc->device));
	struct bfa_rport_priv *rp = rport->dd_data;
	struct bfa_tm_req req = {
		.hdr = bfa_hdr(port, BFA_MC_TM, BFA_TM_REQ),
		.tm_flags = flags,
		.t_secs = BFA_TM_SECS,
	};
	struct bfa_tgt *t;
	unsigned int tag;
	bool done;
	int err;

	err = fc_block_scsi_eh(sc);
	if (err)
		return err;
	t = READ_ONCE(rp->tgt);
	spin_lock_irq(&port->io_lock);
	for (tag = 0; tag < BFA_TMS && port->tm[tag].busy; tag++)
		;
	if (!t || !t->online || tag == BFA_TMS) {
		spin_unlock_irq(&port->io_lock);
		return FAILED;
	}
	port->tm[tag] = (struct bfa_tm){ .busy = true };
	req.tag = cpu_to_be16(tag);
	req.fw_handle = cpu_to_le16(t->fw_handle);
	if (sdev)
		int_to_scsilun(sdev->lun, &req.lun);
	err = bfa_queue_send(port, 1, &req, sizeof(req));
	spin_unlock_irq(&port->io_lock);
	if (!err)
		wait_event_timeout(port->io_wq, READ_ONCE(port->tm[tag].done),
				   BFA_TM_WAIT);
	spin_lock_irq(&port->io_lock);
	done = port->tm[tag].done && port->tm[tag].status == FCP_TMF_CMPL;
	port->tm[tag].busy = false;
	spin_unlock_irq(&port->io_lock);
	if (!done) {
		scmd_printk(KERN_WARNING, sc, "%s reset failed\n",
			    sdev ? "LUN" : "target");
		return FAILED;
	}
	/* what the reset ended, the firmware still holds: clean it up */
	if (!bfa_io_cleanup(port, t, sdev, DID_RESET << 16))
		return FAILED;
	scmd_printk(KERN_INFO, sc, "%s reset done\n", sdev ? "LUN" : "target");
	return SUCCESS;
}

static int bfa_io_eh_lun_reset(struct scsi_cmnd *sc)
{
	return bfa_io_tm(sc, sc->device, FCP_TMF_LUN_RESET);
}

static int bfa_io_eh_target_reset(struct scsi_cmnd *sc)
{
	return bfa_io_tm(sc, NULL, FCP_TMF_TGT_RESET);
}

/* Restart the IOC: every command ends, libfc logs in again. */
static int bfa_io_eh_host_reset(struct scsi_cmnd *sc)
{
	struct bfa_port *port = bfa_io_port(sc->device->host);

	shost_printk(KERN_INFO, sc->device->host, "host reset: restarting the IOC\n");
	bfa_ioc_failed(port, true);
	flush_work(&port->recover_work);
	return READ_ONCE(port->operational) ? SUCCESS : FAILED;
}

/* ---- what the host shows of the card -------------------------------- */

static struct bfa_port *bfa_io_dev_port(struct device *dev)
{
	return bfa_io_port(class_to_shost(dev));
}

static ssize_t firmware_version_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", bfa_io_dev_port(dev)->fw_version);
}
static DEVICE_ATTR_RO(firmware_version);

static ssize_t serial_number_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", bfa_io_dev_port(dev)->serial);
}
static DEVICE_ATTR_RO(serial_number);

static ssize_t model_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "Brocade-%u\n", bfa_io_dev_port(dev)->card_type);
}
static DEVICE_ATTR_RO(model);

static struct attribute *bfa_io_host_attrs[] = {
	&dev_attr_firmware_version.attr,
	&dev_attr_serial_number.attr,
	&dev_attr_model.attr,
	NULL
};
ATTRIBUTE_GROUPS(bfa_io_host);

struct scsi_host_template bfa_io_sht = {
	.module = THIS_MODULE, .name = "Brocade FC HBA", .proc_name = BFA_NAME,
	.this_id = -1, .track_queue_depth = 1,
	/* limits: the firmware may lower can_queue per host */
	.can_queue = BFA_IO_PORT, .sg_tablesize = BFA_SG_MAX,
	.max_sectors = 0xffff, .cmd_size = sizeof(struct bfa_io),
	.shost_groups = bfa_io_host_groups,
	.queuecommand = bfa_io_queuecommand,
	.slave_alloc = fc_slave_alloc,
	.change_queue_depth = scsi_change_queue_depth,
	/* the escalation: abort, LUN, target, the IOC */
	.eh_timed_out = fc_eh_timed_out, .eh_abort_handler = bfa_io_eh_abort,
	.eh_device_reset_handler = bfa_io_eh_lun_reset,
	.eh_target_reset_handler = bfa_io_eh_target_reset,
	.eh_host_reset_handler = bfa_io_eh_host_reset,
};
