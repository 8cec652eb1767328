// SPDX-License-Identifier: GPL-2.0
/*
 * BladeEngine 2 iSCSI: tasks to the card and their completions.
 *
 * A session owns a block of BE2_CMDS_MAX ICDs, one per libiscsi task, and
 * a task's WRB sits at the WRB index equal to its libiscsi index.  The ITT
 * on the wire carries both (WRB index << 16 | ICD), which is how the card
 * finds a task when the target answers; the ITT of what reaches us is
 * checked against both before it is used.
 */
#include <linux/dma-mapping.h>
#include <linux/rcupdate.h>
#include <asm/unaligned.h>
#include <scsi/iscsi_proto.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_eh.h>
#include <scsi/scsi_host.h>

#include "be2iscsi.h"

static u32 be2_task_icd(struct iscsi_task *task)
{
	struct be2_session *bs = task->conn->session->dd_data;

	return bs->hba->icd_base + bs->icd_block * BE2_CMDS_MAX + task->itt;
}

int be2_alloc_pdu(struct iscsi_task *task, u8 opcode)
{
	struct be2_task *bt = task->dd_data;
	u32 icd = be2_task_icd(task);

	if (!bt->bhs)
		return -ENOMEM;
	bt->icd = icd;
	task->hdr = bt->bhs;
	task->hdr_max = sizeof(struct iscsi_hdr);
	task->hdr->itt = (__force itt_t)cpu_to_be32(task->itt << 16 | icd);
	return 0;
}

void be2_parse_itt(struct iscsi_conn *conn, itt_t itt, int *index, int *age)
{
	struct be2_session *bs = conn->session->dd_data;
	u32 v = be32_to_cpu((__force __be32)itt);
	u32 idx = (v >> 16) & 0xff;

	*index = -1;
	if (v >> 24 || idx >= conn->session->cmds_max ||
	    (v & 0xffff) != bs->hba->icd_base + bs->icd_block * BE2_CMDS_MAX +
	    idx)
		return;
	*index = idx;
	if (age)
		*age = conn->session->age;
}

/* The next WRB of a connection, chained after the one posted before. */
static struct be2_wrb *be2_wrb_get(struct be2_conn *bc, u32 idx)
{
	struct be2_wrb *w = be2_ring_at(&bc->ep->wrbq, idx);

	memset(w, 0, sizeof(*w));
	w->dw[0] = cpu_to_le32(idx << BE2_WRB_IDX_SHIFT);
	w->dw[1] = cpu_to_le32(idx);
	return w;
}

static void be2_wrb_post(struct be2_conn *bc, struct be2_wrb *w, u32 idx)
{
	struct be2_wrb *prev = bc->last_wrb;

	if (prev)
		prev->dw[1] = cpu_to_le32((le32_to_cpu(prev->dw[1]) & ~0xffu) |
					  idx);
	bc->last_wrb = w;
	wmb();	/* the WRB and its SGL before the doorbell */
	be2_ring_wrb_db(bc->hba, bc->ep->cid, idx);
}

static void be2_sge_set(struct be2_sge *e, dma_addr_t pa, u32 len, u32 off,
			bool last)
{
	e->pa_hi = cpu_to_le32(upper_32_bits(pa));
	e->pa_lo = cpu_to_le32(lower_32_bits(pa));
	e->offset = cpu_to_le32((off & 0x3fffff) | (last ? BE2_SGE_LAST : 0));
	e->len = cpu_to_le32(len & 0x1ffff);
}

static struct be2_sge *be2_icd_sgl(struct be2_hba *hba, u32 icd)
{
	u32 local = icd - hba->icd_base;
	u32 per = BE2_PAGE / BE2_ICD_BYTES;

	return hba->sgl[local / per].va + (local % per) * BE2_ICD_BYTES;
}

/* A SCSI command: its data elements in the ICD's SGL, then the WRB. */
static int be2_xmit_io(struct be2_conn *bc, struct iscsi_task *task)
{
	struct be2_task *bt = task->dd_data;
	struct scsi_cmnd *sc = task->sc;
	struct be2_hba *hba = bc->hba;
	struct iscsi_scsi_req *hdr = (struct iscsi_scsi_req *)task->hdr;
	bool write = sc->sc_data_direction == DMA_TO_DEVICE;
	struct be2_sge *sgl = be2_icd_sgl(hba, bt->icd);
	struct scatterlist *sg;
	struct be2_wrb *w;
	u32 off = 0, i;
	int n;

	n = scsi_dma_map(sc);
	if (n < 0)
		return -ENOMEM;
	bt->mapped = n > 0;
	if (n > BE2_DATA_SGES) {
		scsi_dma_unmap(sc);
		bt->mapped = false;
		return -EINVAL;
	}
	memset(sgl, 0, BE2_ICD_BYTES);
	be2_sge_set(&sgl[0], bt->bhs_pa, BE2_BHS_BYTES - 2, 0, false);
	w = be2_wrb_get(bc, task->itt);
	scsi_for_each_sg(sc, sg, n, i) {
		u32 len = sg_dma_len(sg);

		be2_sge_set(&sgl[2 + i], sg_dma_address(sg), len, off,
			    i == n - 1);
		if (i < 2) {
			/* the first two also in the WRB, laid out as in the SGL */
			be2_sge_set((struct be2_sge *)&w->dw[8 + 4 * i],
				    sg_dma_address(sg), len, off, i == n - 1);
		}
		off += len;
	}
	w->dw[0] |= cpu_to_le32((be16_to_cpu(*(__be16 *)&hdr->lun) &
				 BE2_WRB_LUN_MASK) |
				((write ? BE2_WRB_WRITE : BE2_WRB_READ) <<
				 BE2_WRB_TYPE_SHIFT) |
				(write ? BE2_WRB_DSP : 0));
	w->dw[1] |= cpu_to_le32((scsi_bufflen(sc) & 0xffffff) << 8);
	w->dw[2] = cpu_to_le32(bt->icd & 0xfff);
	w->dw[4] = cpu_to_le32(upper_32_bits(bt->bhs_pa));
	w->dw[5] = cpu_to_le32(lower_32_bits(bt->bhs_pa));
	w->dw[6] = cpu_to_le32(be32_to_cpu(task->cmdsn));
	be2_wrb_post(bc, w, task->itt);
	return 0;
}

/* A management PDU: login, text, NOP-Out, task management, logout. */
static int be2_xmit_mgmt(struct be2_conn *bc, struct iscsi_task *task)
{
	struct be2_task *bt = task->dd_data;
	struct be2_hba *hba = bc->hba;
	struct iscsi_hdr *hdr = task->hdr;
	u32 type, flags = 0, cmdsn = be32_to_cpu(task->cmdsn);
	struct be2_wrb *w;

	switch (hdr->opcode & ISCSI_OPCODE_MASK) {
	case ISCSI_OP_LOGIN:
		type = BE2_WRB_RAW;
		cmdsn = 1;
		break;
	case ISCSI_OP_TEXT:
		type = BE2_WRB_RAW;
		break;
	case ISCSI_OP_NOOP_OUT:
		if (hdr->ttt != cpu_to_be32(ISCSI_RESERVED_TAG)) {
			/* an answer to the target: we hear when it is gone */
			type = BE2_WRB_RAW;
			flags = BE2_WRB_DMSG;
		} else {
			type = BE2_WRB_READ;
		}
		break;
	case ISCSI_OP_SCSI_TMFUNC:
	case ISCSI_OP_LOGOUT:
		type = BE2_WRB_TMF;
		break;
	default:
		return -EINVAL;
	}
	bt->data_len = 0;
	if (task->data_count) {
		bt->data_pa = dma_map_single(&hba->pdev->dev, task->data,
					     task->data_count, DMA_TO_DEVICE);
		if (dma_mapping_error(&hba->pdev->dev, bt->data_pa))
			return -ENOMEM;
		bt->data_len = task->data_count;
	}
	w = be2_wrb_get(bc, task->itt);
	w->dw[0] |= cpu_to_le32(type << BE2_WRB_TYPE_SHIFT | flags);
	w->dw[1] |= cpu_to_le32((task->data_count & 0xffffff) << 8);
	w->dw[2] = cpu_to_le32(bt->icd & 0xfff);
	w->dw[4] = cpu_to_le32(upper_32_bits(bt->bhs_pa));
	w->dw[5] = cpu_to_le32(lower_32_bits(bt->bhs_pa));
	w->dw[6] = cpu_to_le32(cmdsn);
	if (bt->data_len)
		be2_sge_set((struct be2_sge *)&w->dw[8], bt->data_pa,
			    bt->data_len, 0, true);
	be2_wrb_post(bc, w, task->itt);
	return 0;
}

/* libiscsi's xmit_task: under the session's frwd_lock */
int be2_xmit_task(struct iscsi_task *task)
{
	struct be2_conn *bc = task->conn->dd_data;

	if (!bc->ep || bc->hba->dead)
		return -ENOTCONN;
	return task->sc ? be2_xmit_io(bc, task) : be2_xmit_mgmt(bc, task);
}

/* libiscsi's cleanup_task: under the session's back_lock */
void be2_cleanup_task(struct iscsi_task *task)
{
	struct be2_task *bt = task->dd_data;
	struct be2_hba *hba = ((struct be2_session *)
			       task->conn->session->dd_data)->hba;

	if (task->sc && bt->mapped) {
		scsi_dma_unmap(task->sc);
		bt->mapped = false;
	}
	if (bt->data_len) {
		dma_unmap_single(&hba->pdev->dev, bt->data_pa, bt->data_len,
				 DMA_TO_DEVICE);
		bt->data_len = 0;
	}
}

/* Send the negotiated parameters: from now on the card runs commands. */
int be2_ctx_update(struct be2_conn *bc)
{
	struct iscsi_conn *conn = bc->conn;
	struct iscsi_session *s = conn->session;
	struct be2_wrb *w;
	u32 dw4 = 0;

	spin_lock_bh(&s->frwd_lock);
	if (!bc->ep) {
		spin_unlock_bh(&s->frwd_lock);
		return -ENOTCONN;
	}
	w = be2_wrb_get(bc, BE2_CTX_WRB);
	w->dw[0] |= cpu_to_le32(BE2_WRB_CTX_UPDATE << BE2_WRB_TYPE_SHIFT);
	w->dw[1] |= cpu_to_le32((s->max_burst & 0x7ffff) << 8);
	w->dw[2] = cpu_to_le32((conn->max_xmit_dlength & 0x1ffff) << 15);
	w->dw[3] = cpu_to_le32(s->first_burst & 0x3fff);
	if (conn->hdrdgst_en)
		dw4 |= BIT(17);
	if (conn->datadgst_en)
		dw4 |= BIT(18);
	dw4 |= (s->erl & 3) << 19;
	if (s->imm_data_en)
		dw4 |= BIT(27);
	if (s->initial_r2t_en)
		dw4 |= BIT(28);
	w->dw[4] = cpu_to_le32(dw4);
	w->dw[5] = cpu_to_le32(conn->exp_statsn);
	be2_wrb_post(bc, w, BE2_CTX_WRB);
	spin_unlock_bh(&s->frwd_lock);
	return 0;
}

/* The running task at a WRB index, or NULL; with the back_lock held. */
static struct iscsi_task *be2_task_at(struct iscsi_conn *conn, u32 idx)
{
	struct iscsi_task *task;

	if (idx >= conn->session->cmds_max)
		return NULL;
	task = conn->session->cmds[idx];
	if (task->state != ISCSI_TASK_RUNNING || task->conn != conn)
		return NULL;
	return task;
}

/* A command, TMF, logout or NOP-Out ping the card completed. */
static void be2_sol_done(struct be2_conn *bc, const u32 *dw)
{
	struct iscsi_conn *conn = bc->conn;
	struct iscsi_session *s = conn->session;
	u32 idx = (dw[2] >> 16) & 0xff, wnd = dw[2] >> 24;
	u32 exp = dw[1], resid = dw[3] & 0x7fffffff;
	u8 sts = dw[0] >> 8, resp = dw[0] >> 16, fl = (dw[0] >> 24) & 0x7f;
	union {
		struct iscsi_hdr h;
		struct iscsi_scsi_rsp rsp;
		struct iscsi_tm_rsp tmf;
		struct iscsi_logout_rsp logout;
		struct iscsi_nopin nop;
	} u = {};
	struct iscsi_task *task;
	struct be2_task *bt;
	u8 *data = NULL;
	int len = 0, rc;

	spin_lock(&s->back_lock);
	task = be2_task_at(conn, idx);
	if (!task) {
		spin_unlock(&s->back_lock);
		dev_dbg(&bc->hba->pdev->dev, "completion of WRB %u dropped\n",
			idx);
		return;
	}
	bt = task->dd_data;
	u.h.itt = task->hdr->itt;
	u.rsp.exp_cmdsn = cpu_to_be32(exp);
	u.rsp.max_cmdsn = cpu_to_be32(exp + (wnd ? wnd - 1 : 0));
	switch (task->hdr->opcode & ISCSI_OPCODE_MASK) {
	case ISCSI_OP_SCSI_CMD:
		u.rsp.opcode = ISCSI_OP_SCSI_CMD_RSP;
		u.rsp.flags = ISCSI_FLAG_CMD_FINAL |
			(fl & (ISCSI_FLAG_CMD_UNDERFLOW |
			       ISCSI_FLAG_CMD_OVERFLOW));
		u.rsp.response = resp;
		u.rsp.cmd_status = sts;
		u.rsp.residual_count = cpu_to_be32(resid);
		if (sts == SAM_STAT_CHECK_CONDITION) {
			/* sense length and sense, where the card put them */
			data = bt->bhs + BE2_SENSE_OFF;
			len = min_t(int, 2 + get_unaligned_be16(data),
				    2 + SCSI_SENSE_BUFFERSIZE);
			hton24(u.rsp.dlength, len);
		}
		break;
	case ISCSI_OP_SCSI_TMFUNC:
		u.tmf.opcode = ISCSI_OP_SCSI_TMFUNC_RSP;
		u.tmf.flags = ISCSI_FLAG_CMD_FINAL;
		u.tmf.response = resp;
		break;
	case ISCSI_OP_LOGOUT:
		u.logout.opcode = ISCSI_OP_LOGOUT_RSP;
		u.logout.flags = ISCSI_FLAG_CMD_FINAL;
		u.logout.response = resp;
		break;
	case ISCSI_OP_NOOP_OUT:
		u.nop.opcode = ISCSI_OP_NOOP_IN;
		u.nop.flags = ISCSI_FLAG_CMD_FINAL;
		u.nop.ttt = cpu_to_be32(ISCSI_RESERVED_TAG);
		break;
	default:
		spin_unlock(&s->back_lock);
		return;
	}
	rc = __iscsi_complete_pdu(conn, &u.h, data, len);
	spin_unlock(&s->back_lock);
	if (rc)
		iscsi_conn_failure(conn, rc);
}

/* The card sent a NOP-Out answer we asked to hear about: the task ends. */
static void be2_msg_done(struct be2_conn *bc, const u32 *dw)
{
	struct iscsi_session *s = bc->conn->session;
	struct iscsi_task *task;

	spin_lock(&s->back_lock);
	task = be2_task_at(bc->conn, (dw[2] >> 16) & 0xff);
	if (task && !task->sc && task->hdr->itt == RESERVED_ITT)
		__iscsi_put_task(task);
	spin_unlock(&s->back_lock);
}

static void be2_rx_deliver(struct be2_conn *bc)
{
	struct iscsi_conn *conn = bc->conn;
	u32 want = ntoh24(bc->rx_hdr.dlength);
	int rc;

	bc->rx_open = false;
	if (bc->rx_overflow || bc->rx_len != want) {
		dev_warn_ratelimited(&bc->hba->pdev->dev,
				     "PDU 0x%02x of %u data bytes came with %u: dropped\n",
				     bc->rx_hdr.opcode, want, bc->rx_len);
		iscsi_conn_failure(conn, ISCSI_ERR_PROTO);
		return;
	}
	spin_lock(&conn->session->back_lock);
	rc = __iscsi_complete_pdu(conn, &bc->rx_hdr, bc->rx_data, bc->rx_len);
	spin_unlock(&conn->session->back_lock);
	if (rc)
		iscsi_conn_failure(conn, rc);
}

/*
 * The iSCSI error a connection-ending completion stands for; 0 for the
 * card's answers to our invalidations, which need nothing, and -1 for a
 * code the card does not send.
 */
static int be2_cqe_error(u32 code)
{
	switch (code) {
	case BE2_CQE_DATA_DIGEST:
	case BE2_CQE_UNSOL_DIGEST:
		return ISCSI_ERR_DATA_DGST;
	case BE2_CQE_HDR_DIGEST:
		return ISCSI_ERR_HDR_DGST;
	case BE2_CQE_FIN_RCVD:
	case BE2_CQE_RST_RCVD:
	case BE2_CQE_RST_SENT:
	case BE2_CQE_TCP_TIMEOUT:
		return ISCSI_ERR_TCP_CONN_CLOSE;
	case BE2_CQE_PDU_TOO_BIG ... BE2_CQE_AHS:
	case BE2_CQE_UNKNOWN_HDR ... BE2_CQE_BAD_ITT:
	case BE2_CQE_BAD_UNSOL ... BE2_CQE_BAD_DATASN:
	case BE2_CQE_DATA_OTHER_CONN ... BE2_CQE_IMM_DATA:
		return ISCSI_ERR_CONN_FAILED;
	case BE2_CQE_CONN_INVALIDATED ... BE2_CQE_CMD_INVALIDATED:
		return 0;
	}
	return -1;
}

/* The card reports the connection gone, or a PDU it would not take. */
static void be2_conn_lost(struct be2_conn *bc, u32 code)
{
	int err = be2_cqe_error(code);

	if (err < 0)
		dev_warn_ratelimited(&bc->hba->pdev->dev,
				     "completion with unknown code %u dropped\n",
				     code);
	else if (err == ISCSI_ERR_CONN_FAILED)
		dev_warn_ratelimited(&bc->hba->pdev->dev,
				     "the card dropped a connection (completion code %u)\n",
				     code);
	if (err > 0)
		iscsi_conn_failure(bc->conn, err);
}

/*
 * A header or data buffer of the default rings: what the target sent
 * outside a command (login, text, NOP-In, async, reject).  The buffer goes
 * back to the card whoever it was for.
 */
static void be2_unsol(struct be2_hba *hba, struct be2_conn *bc, const u32 *dw,
		      u32 code)
{
	bool is_hdr = code == BE2_CQE_UNSOL_HDR;
	struct be2_defq *q = is_hdr ? &hba->defq_hdr : &hba->defq_data;
	u32 idx = dw[3] & 0xffff, dpl = dw[2] >> 16;
	bool final = dw[3] & BIT(30);
	const void *buf;

	if (idx >= q->ring.entries || dpl > q->bufsize) {
		dev_warn_ratelimited(&hba->pdev->dev,
				     "default ring entry %u of %u bytes dropped\n",
				     idx, dpl);
		if (bc)
			iscsi_conn_failure(bc->conn, ISCSI_ERR_PROTO);
		return;
	}
	buf = q->buf[idx];
	rmb();	/* the buffer after its completion */
	if (!bc)
		goto back;
	if (code == BE2_CQE_UNSOL_DIGEST) {
		/* a PDU of the target's is lost: its buffer goes back */
		be2_defq_give_back(hba, q);
		bc->rx_open = false;
		be2_conn_lost(bc, code);
		return;
	}
	if (is_hdr) {
		if (dpl < sizeof(bc->rx_hdr)) {
			bc->rx_overflow = true;
		} else {
			memcpy(&bc->rx_hdr, buf, sizeof(bc->rx_hdr));
			bc->rx_overflow = bc->rx_hdr.hlength != 0;
		}
		bc->rx_len = 0;
		bc->rx_open = true;
	} else if (bc->rx_open) {
		if (bc->rx_len + dpl > BE2_RX_PDU_MAX) {
			bc->rx_overflow = true;
		} else {
			memcpy(bc->rx_data + bc->rx_len, buf, dpl);
			bc->rx_len += dpl;
		}
	} else {
		goto back;	/* data without its header */
	}
	be2_defq_give_back(hba, q);
	if (final)
		be2_rx_deliver(bc);
	return;
back:
	be2_defq_give_back(hba, q);
}

/* The I/O completion queue, from its EQ's poll: entries handled. */
int be2_process_cq(struct be2_hba *hba, int budget)
{
	struct be2_ring *cq = &hba->cq[0];
	int n = 0;

	rcu_read_lock();
	while (n < budget) {
		struct be2_cqe *e = be2_ring_at(cq, cq->tail);
		u32 dw[4], code, i;
		struct be2_conn *bc;

		dw[3] = le32_to_cpu(READ_ONCE(e->dw[3]));
		if (!(dw[3] & BE2_CQE_VALID))
			break;
		rmb();	/* the entry after its valid bit */
		for (i = 0; i < 3; i++)
			dw[i] = le32_to_cpu(e->dw[i]);
		WRITE_ONCE(e->dw[3], 0);
		cq->tail = (cq->tail + 1) % cq->entries;
		n++;

		code = BE2_CQE_CODE(dw[2]);
		bc = be2_conn_get(hba, BE2_CQE_CID(dw[2]));
		if (code == BE2_CQE_UNSOL_HDR || code == BE2_CQE_UNSOL_DATA ||
		    code == BE2_CQE_UNSOL_DIGEST) {
			be2_unsol(hba, bc, dw, code);
			continue;
		}
		if (!bc) {
			dev_dbg(&hba->pdev->dev,
				"completion %u for CID %u, which is not open\n",
				code, BE2_CQE_CID(dw[2]));
			continue;
		}
		if (code == BE2_CQE_SOL_DONE)
			be2_sol_done(bc, dw);
		else if (code == BE2_CQE_DRIVER_MSG)
			be2_msg_done(bc, dw);
		else
			be2_conn_lost(bc, code);
	}
	rcu_read_unlock();
	be2_ring_cq_db(hba, cq->id, n, n < budget);
	return n;
}

/*
 * Before libiscsi's abort and LUN reset: the card forgets the commands
 * concerned, so that none of them moves data once the SCSI midlayer has
 * them back.
 */
static int be2_eh_invalidate(struct scsi_cmnd *sc, bool whole_lun)
{
	struct iscsi_cls_session *cls = starget_to_session(scsi_target(sc->device));
	struct iscsi_session *s = cls->dd_data;
	struct be2_session *bs = s->dd_data;
	struct iscsi_task *held[BE2_CMDS_MAX];
	u16 icd[BE2_CMDS_MAX];
	struct be2_conn *bc;
	unsigned int n = 0, i;
	u16 cid = 0;
	int rc = 0;

	spin_lock_bh(&s->frwd_lock);
	bc = s->leadconn ? s->leadconn->dd_data : NULL;
	if (bc && bc->ep)
		cid = bc->ep->cid;
	spin_unlock_bh(&s->frwd_lock);
	if (!bc || !cid)
		return 0;
	spin_lock_bh(&s->back_lock);
	for (i = 0; i < s->cmds_max; i++) {
		struct iscsi_task *t = s->cmds[i];

		if (t->state != ISCSI_TASK_RUNNING || !t->sc)
			continue;
		if (whole_lun ? t->sc->device != sc->device : t->sc != sc)
			continue;
		iscsi_get_task(t);
		held[n] = t;
		icd[n++] = ((struct be2_task *)t->dd_data)->icd;
	}
	spin_unlock_bh(&s->back_lock);
	if (n)
		rc = be2_invalidate_icds(bs->hba, cid, icd, n);
	for (i = 0; i < n; i++)
		iscsi_put_task(held[i]);
	return rc;
}

int be2_eh_abort(struct scsi_cmnd *sc)
{
	int rc = be2_eh_invalidate(sc, false);

	if (rc)
		sdev_printk(KERN_WARNING, sc->device,
			    "the card could not forget the command (%d)\n", rc);
	return iscsi_eh_abort(sc);
}

int be2_eh_device_reset(struct scsi_cmnd *sc)
{
	int rc = be2_eh_invalidate(sc, true);

	if (rc)
		sdev_printk(KERN_WARNING, sc->device,
			    "the card could not forget the LUN's commands (%d)\n",
			    rc);
	return iscsi_eh_device_reset(sc);
}
