// SPDX-License-Identifier: GPL-2.0
/*
 * BladeEngine 2 iSCSI: registers, doorbells and interrupts.  This is the
 * only file that touches the card's register windows.
 */
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/jiffies.h>

#include "be2iscsi.h"

#define BE2_POST_WAIT_MS	30000
#define BE2_POLL_BUDGET		128

/* The firmware finished its power-on self test: wait for it, bounded. */
int be2_hw_wait_ready(struct be2_hba *hba)
{
	unsigned long end = jiffies + msecs_to_jiffies(BE2_POST_WAIT_MS);
	u32 v;

	for (;;) {
		v = ioread32(hba->csr + BE2_POST_STAGE);
		if (v & BE2_POST_ERROR) {
			dev_err(&hba->pdev->dev, "firmware POST error 0x%08x\n",
				v);
			return -EIO;
		}
		if ((v & BE2_POST_STAGE_MASK) == BE2_POST_READY)
			return 0;
		if (time_after(jiffies, end)) {
			dev_err(&hba->pdev->dev,
				"firmware not ready after %u ms (POST stage 0x%x)\n",
				BE2_POST_WAIT_MS, v & BE2_POST_STAGE_MASK);
			return -ETIMEDOUT;
		}
		msleep(100);
	}
}

void be2_hw_intr(struct be2_hba *hba, bool on)
{
	u32 v = ioread32(hba->cfg + BE2_MEMBAR_CTRL);

	if (on)
		v |= BE2_MEMBAR_INTR_EN;
	else
		v &= ~BE2_MEMBAR_INTR_EN;
	iowrite32(v, hba->cfg + BE2_MEMBAR_CTRL);
}

void be2_ring_eq_db(struct be2_hba *hba, u16 id, u32 popped, bool rearm,
		    bool clear)
{
	u32 v = (id & 0x1ff) | ((id >> 9) & 0x1f) << 11 | BE2_DB_EVENT;

	v |= (popped & 0x1fff) << BE2_DB_POPPED_SHIFT;
	if (rearm)
		v |= BE2_DB_REARM;
	if (clear)
		v |= BE2_DB_CLR_INTR;
	iowrite32(v, hba->db + BE2_DB_EQ_CQ);
}

void be2_ring_cq_db(struct be2_hba *hba, u16 id, u32 popped, bool rearm)
{
	u32 v = (id & 0x3ff) | ((id >> 10) & 0x1f) << 11;

	v |= (popped & 0x1fff) << BE2_DB_POPPED_SHIFT;
	if (rearm)
		v |= BE2_DB_REARM;
	iowrite32(v, hba->db + BE2_DB_EQ_CQ);
}

void be2_ring_defq_db(struct be2_hba *hba, u16 id, u32 count)
{
	iowrite32((id & 0x3fff) | BE2_DB_DEFQ_REARM | BE2_DB_DEFQ_EVENT |
		  (count & 0x3fff) << 16, hba->db + BE2_DB_DEFQ);
}

void be2_ring_wrb_db(struct be2_hba *hba, u16 cid, u32 idx)
{
	iowrite32(cid | (idx & 0xff) << 16 | 1u << 24, hba->db + BE2_DB_WRB);
}

/* Take the events of an EQ: the number taken. */
static u32 be2_eq_drain(struct be2_eq *eq)
{
	struct be2_ring *r = &eq->ring;
	u32 n = 0;

	for (;;) {
		__le32 *e = be2_ring_at(r, r->tail);
		u32 v = le32_to_cpu(READ_ONCE(*e));

		if (!(v & BE2_EQE_VALID) || n >= r->entries)
			break;
		/* which CQ it names matters not: each EQ has one CQ */
		WRITE_ONCE(*e, 0);
		r->tail = (r->tail + 1) % r->entries;
		n++;
	}
	return n;
}

static int be2_poll(struct irq_poll *iop, int budget)
{
	struct be2_eq *eq = container_of(iop, struct be2_eq, iop);
	struct be2_hba *hba = eq->hba;
	u32 popped;
	int done = 0;

	rmb();	/* the events before what they announce */
	popped = be2_eq_drain(eq);
	if (eq == &hba->eq[0])
		done = be2_process_cq(hba, budget);
	else
		be2_mcc_process(hba);
	if (done < budget) {
		irq_poll_complete(iop);
		be2_ring_eq_db(hba, eq->ring.id, popped, true, false);
	} else if (popped) {
		be2_ring_eq_db(hba, eq->ring.id, popped, false, false);
	}
	return done;
}

static void be2_eq_kick(struct be2_eq *eq)
{
	/* the line drops; the EQ stays unarmed until the poll is done */
	be2_ring_eq_db(eq->hba, eq->ring.id, 0, false, true);
	irq_poll_sched(&eq->iop);
}

static irqreturn_t be2_msix_irq(int irq, void *data)
{
	struct be2_eq *eq = data;

	be2_eq_kick(eq);
	return IRQ_HANDLED;
}

static irqreturn_t be2_intx_irq(int irq, void *data)
{
	struct be2_hba *hba = data;
	u32 isr = ioread32(hba->csr + BE2_ISR(PCI_FUNC(hba->pdev->devfn)));
	irqreturn_t ret = IRQ_NONE;
	unsigned int i;

	if (isr == 0xffffffff)
		return IRQ_NONE;	/* the card is gone */
	for (i = 0; i < hba->neq; i++) {
		if (hba->eq[i].ring.live && (isr & BIT(hba->eq[i].ring.id))) {
			be2_eq_kick(&hba->eq[i]);
			ret = IRQ_HANDLED;
		}
	}
	return ret;
}

int be2_hw_irq_setup(struct be2_hba *hba)
{
	struct pci_dev *pdev = hba->pdev;
	unsigned int i;
	int n, rc;

	hba->neq = 2;
	n = -ENOSPC;
	if (!hba->intx)
		n = pci_alloc_irq_vectors(pdev, 2, 2, PCI_IRQ_MSIX);
	if (n < 0) {
		n = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_LEGACY);
		if (n < 0)
			return n;
		hba->intx = true;
	}
	for (i = 0; i < hba->neq; i++) {
		struct be2_eq *eq = &hba->eq[i];

		eq->hba = hba;
		irq_poll_init(&eq->iop, BE2_POLL_BUDGET, be2_poll);
		snprintf(eq->irq_name, sizeof(eq->irq_name), "beiscsi_%s@%s",
			 i ? "mcc" : "io", pci_name(pdev));
	}
	if (hba->intx) {
		rc = request_irq(pci_irq_vector(pdev, 0), be2_intx_irq,
				 IRQF_SHARED, hba->eq[0].irq_name, hba);
		if (rc)
			goto free;
		hba->eq[0].irq_on = true;
		return 0;
	}
	for (i = 0; i < hba->neq; i++) {
		struct be2_eq *eq = &hba->eq[i];

		eq->vector = i;
		rc = request_irq(pci_irq_vector(pdev, i), be2_msix_irq, 0,
				 eq->irq_name, eq);
		if (rc)
			goto free;
		eq->irq_on = true;
	}
	return 0;
free:
	be2_hw_irq_teardown(hba);
	return rc;
}

void be2_hw_irq_teardown(struct be2_hba *hba)
{
	unsigned int i;

	for (i = 0; i < hba->neq; i++) {
		struct be2_eq *eq = &hba->eq[i];

		if (eq->irq_on)
			free_irq(pci_irq_vector(hba->pdev, eq->vector),
				 hba->intx ? (void *)hba : (void *)eq);
		eq->irq_on = false;
		if (eq->hba)
			irq_poll_disable(&eq->iop);
	}
	pci_free_irq_vectors(hba->pdev);
}
