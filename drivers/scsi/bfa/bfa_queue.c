// SPDX-License-Identifier: GPL-2.0
/*
 * Brocade Fibre Channel HBA driver: the request and response rings.
 *
 * Four ring pairs in host memory.  The host produces requests and tells
 * the firmware through a producer-index register; the firmware writes the
 * index of the next request it will take into a shadow word in host
 * memory.  Responses go the other way: the firmware writes elements and a
 * shadow producer index, raises the ring's interrupt, and the host hands
 * back a consumer index.  Where those registers are, the firmware says in
 * its answer to the configuration.  Every index the firmware writes is
 * checked before it is used.
 */
#include <linux/io.h>

#include "bfa.h"

#define CFG_TIMEOUT_MS		3000

int bfa_queue_alloc(struct bfa_port *port)
{
	struct device *dev = &port->pdev->dev;
	unsigned int q;

	port->shared = dmam_alloc_coherent(dev, sizeof(*port->shared),
					   &port->shared_dma, GFP_KERNEL);
	if (!port->shared)
		return -ENOMEM;
	for (q = 0; q < BFA_NQ; q++) {
		struct bfa_ring *req = &port->req[q], *rsp = &port->rsp[q];

		req->depth = BFA_REQ_DEPTH;
		rsp->depth = BFA_RSP_DEPTH;
		req->base = dmam_alloc_coherent(dev, req->depth * BFA_ELEM,
						&req->dma, GFP_KERNEL);
		rsp->base = dmam_alloc_coherent(dev, rsp->depth * BFA_ELEM,
						&rsp->dma, GFP_KERNEL);
		if (!req->base || !rsp->base)
			return -ENOMEM;
		spin_lock_init(&req->lock);
	}
	spin_lock_init(&port->rsp_lock);
	return 0;
}

/* A register offset from the firmware: a 32-bit register inside BAR0. */
static void __iomem *bfa_queue_reg(struct bfa_port *port, __be32 off)
{
	u32 o = be32_to_cpu(off);

	if (o % 4 || o > pci_resource_len(port->pdev, 0) - 4)
		return NULL;
	return port->bar + o;
}

/*
 * Give the firmware the rings (every (re)enable of the IOC: the firmware
 * starts them from index 0), and learn their index registers.
 */
int bfa_queue_configure(struct bfa_port *port)
{
	struct bfa_shared *sh = port->shared;
	dma_addr_t sh_dma = port->shared_dma;
	struct bfa_cfg_info *ci = &sh->info;
	struct bfa_iocfc_cfg_req req = {
		.hdr = { .class = BFA_MC_IOCFC, .id = BFA_IOCFC_CFG,
			 .dest = port->fn << 1 | port->fn },
	};
	unsigned int q;
	int err;

	port->configured = false;
	memset(sh, 0, sizeof(*sh));
	ci->num_queues = BFA_NQ;
	ci->endian_sig = BFA_ENDIAN_SIG;
	ci->coalesce = 1;
	ci->num_ios = cpu_to_be16(BFA_IOS);
	for (q = 0; q * BFA_SENSE_SEG < BFA_IOS * BFA_SENSE_SLOT; q++)
		bfa_dma_set(&ci->sense_base[q],
			    port->sense_dma + q * BFA_SENSE_SEG);
	for (q = 0; q < BFA_NQ; q++) {
		port->req[q].index = 0;
		port->rsp[q].index = 0;
		bfa_dma_set(&ci->req_base[q], port->req[q].dma);
		bfa_dma_set(&ci->rsp_base[q], port->rsp[q].dma);
		bfa_dma_set(&ci->req_shadow[q], sh_dma +
			    offsetof(struct bfa_shared, req_shadow[q]));
		bfa_dma_set(&ci->rsp_shadow[q], sh_dma +
			    offsetof(struct bfa_shared, rsp_shadow[q]));
		ci->req_depth[q] = cpu_to_be16(BFA_REQ_DEPTH);
		ci->rsp_depth[q] = cpu_to_be16(BFA_RSP_DEPTH);
	}
	bfa_dma_set(&ci->cfg_rsp, sh_dma + offsetof(struct bfa_shared, cfg));
	bfa_dma_set(&req.info, sh_dma + offsetof(struct bfa_shared, info));

	err = bfa_hw_mbox_call(port, &req, sizeof(req),
			       BFA_REPLY(BFA_IOCFC_CFG), CFG_TIMEOUT_MS);
	if (err) {
		dev_err(&port->pdev->dev, "firmware did not take the queue configuration: %d\n",
			err);
		return err;
	}
	for (q = 0; q < BFA_NQ; q++) {
		port->req[q].reg = bfa_queue_reg(port, sh->cfg.req_pi_reg[q]);
		port->rsp[q].reg = bfa_queue_reg(port, sh->cfg.rsp_ci_reg[q]);
		port->req[q].hw_qid = sh->cfg.hw_qid[q];
		if (!port->req[q].reg || !port->rsp[q].reg) {
			dev_err(&port->pdev->dev,
				"firmware gave queue %u registers outside the BAR\n",
				q);
			return -EIO;
		}
	}
	port->configured = true;
	bfa_hw_irq_on(port, true);
	return 0;
}

/* The firmware no longer serves the rings (IOC down or going down). */
void bfa_queue_stop(struct bfa_port *port)
{
	spin_lock_irq(&port->rsp_lock);
	port->configured = false;
	spin_unlock_irq(&port->rsp_lock);
	bfa_els_rings(port, false);
	bfa_io_flush(port);
}

/*
 * Put one message of len bytes on request ring q.  The header's queue
 * byte is filled in.  -EBUSY when the ring is full, -ENOLINK when the
 * firmware does not serve the rings.
 */
int bfa_queue_send(struct bfa_port *port, unsigned int q, void *msg,
		   size_t len)
{
	struct bfa_ring *r = &port->req[q];
	struct bfa_msg_hdr *hdr = msg;
	unsigned long flags;
	u32 ci, next;
	void *elem;
	int err = 0;

	if (WARN_ON(len > BFA_ELEM || q >= BFA_NQ))
		return -EINVAL;
	spin_lock_irqsave(&r->lock, flags);
	if (!port->configured) {
		err = -ENOLINK;
		goto out;
	}
	ci = le32_to_cpu(READ_ONCE(port->shared->req_shadow[q].ci));
	next = (r->index + 1) % r->depth;
	if (ci >= r->depth || next == ci) {
		if (ci >= r->depth)
			dev_err_ratelimited(&port->pdev->dev,
					    "firmware index %u on request queue %u\n",
					    ci, q);
		err = -EBUSY;
		goto out;
	}
	hdr->token = r->hw_qid;
	elem = r->base + r->index * BFA_ELEM;
	memcpy(elem, msg, len);
	memset(elem + len, 0, BFA_ELEM - len);
	/* the element is in memory before the firmware hears of it */
	r->index = next;
	writel(next, r->reg);
out:
	spin_unlock_irqrestore(&r->lock, flags);
	return err;
}

static void bfa_queue_dispatch(struct bfa_port *port, unsigned int q,
			       const void *elem)
{
	const struct bfa_msg_hdr *hdr = elem;

	switch (hdr->class) {
	case BFA_MC_FCPORT:
		bfa_port_msg(port, elem);
		break;
	case BFA_MC_UF:
	case BFA_MC_FCXP:
	case BFA_MC_LPS:
		bfa_els_msg(port, elem);
		break;
	case BFA_MC_RPORT:
	case BFA_MC_ITN:
	case BFA_MC_IO:
	case BFA_MC_IO_GOOD:
	case BFA_MC_TM:
		bfa_io_msg(port, elem);
		break;
	default:
		dev_warn_ratelimited(&port->pdev->dev,
				     "unexpected firmware message %u/%u on queue %u\n",
				     hdr->class, hdr->id, q);
		break;
	}
}

/* Take every new response, on every ring (interrupt context). */
void bfa_queue_poll(struct bfa_port *port)
{
	unsigned int q;

	spin_lock(&port->rsp_lock);
	for (q = 0; q < BFA_NQ && port->configured; q++) {
		struct bfa_ring *r = &port->rsp[q];
		unsigned int start = r->index, pi;

		pi = le32_to_cpu(READ_ONCE(port->shared->rsp_shadow[q].pi));
		if (pi >= r->depth) {
			dev_err_ratelimited(&port->pdev->dev,
					    "firmware index %u on response queue %u\n",
					    pi, q);
			continue;
		}
		/* the index is read before the elements it covers */
		dma_rmb();
		while (r->index != pi) {
			bfa_queue_dispatch(port, q, r->base + r->index * BFA_ELEM);
			r->index = (r->index + 1) % r->depth;
		}
		if (r->index != start)
			writel(r->index, r->reg);
	}
	spin_unlock(&port->rsp_lock);
	/* frames that found the request ring full */
	if (!skb_queue_empty_lockless(&port->fcxp_wait))
		bfa_els_kick(port);
}
