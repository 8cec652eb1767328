// SPDX-License-Identifier: GPL-2.0
/*
 * Brocade Fibre Channel HBA driver: the Crossbow ASIC's registers.
 *
 * The only file that knows register offsets: semaphores, firmware state,
 * the shared-memory window, PLL and processor control, interrupt causes
 * and masks, and the mailbox between a port's driver and the firmware.
 */
#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <asm/unaligned.h>

#include "bfa.h"

/* per function */
#define REG_CAUSE(fn)		(0x14000 + 0x100 * (fn))
#define REG_MASK(fn)		(0x14004 + 0x100 * (fn))
#define REG_PAGE(fn)		(0x14008 + 0x100 * (fn))
#define REG_MBOX_IN(fn)		(0x19200 + 0x60 * (fn))
#define REG_MBOX_OUT(fn)	(0x19280 + 0x60 * (fn))
#define REG_DOORBELL(fn)	(0x19000 + 0x14 * (fn))
#define REG_MBOX_STAT(fn)	(0x19008 + 0x14 * (fn))
/* per port of the ASIC */
#define REG_HEARTBEAT(p)	(0x14240 + 8 * (p))
#define REG_FWSTATE(p)		(0x14244 + 8 * (p))
/* chip */
#define REG_PLL_LCLK		0x14204
#define REG_PLL_SCLK		0x14208
#define REG_SEM(n)		(0x14230 + 4 * (n))
#define REG_PSS			0x18800
#define REG_PSS_ERR		0x18810
#define REG_ERR_SET		0x18818

#define SMEM_WINDOW		0x8000
#define SMEM_WINDOW_SIZE	0x8000
#define SMEM_FIRST_PAGE		0x40

#define PSS_LPU0_RESET		BIT(0)
#define PSS_LPU1_RESET		BIT(1)
#define PSS_LMEM_INIT		BIT(8)
#define PSS_LMEM_RESET		BIT(9)
#define PSS_LMEM_DONE		BIT(12)
#define PSS_I2C_DIV		GENMASK(22, 16)

#define PLL_SOFT_RESET		BIT(16)
#define PLL_BYPASS		BIT(2)
#define PLL_SCLK_VALUE		0xf303
#define PLL_LCLK_VALUE		0xf313

/* interrupt causes: this function's mailbox, and the errors both share */
#define CAUSE_MBOX(fn)		BIT(20 + (fn))
#define CAUSE_ERRORS		GENMASK(19, 16)
#define CAUSE_FW_ERRORS		GENMASK(18, 16)
#define CAUSE_PSS_ERR		BIT(19)
#define CAUSE_CTL(fn)		(CAUSE_MBOX(fn) | CAUSE_ERRORS)
#define CAUSE_RSP(fn)		(0xfu << (8 + 4 * (fn)))	/* responses */

#define MSIX_VECTORS		22	/* MSI-X entry n = cause bit n */

/* every cause this driver serves */
static u32 causes_of(unsigned int fn)
{
	return CAUSE_CTL(fn) | CAUSE_RSP(fn);
}

static u32 rd(struct bfa_port *port, u32 reg)
{
	return readl(port->bar + reg);
}

static void wr(struct bfa_port *port, u32 reg, u32 val)
{
	writel(val, port->bar + reg);
}

/* ---- semaphores and firmware state ------------------------------------ */

/* A read that returns 0 took the semaphore; 1 means another holder. */
int bfa_hw_sem_get(struct bfa_port *port, unsigned int sem,
		   unsigned int timeout_ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(timeout_ms);
	u32 v;

	for (;;) {
		v = rd(port, REG_SEM(sem));
		if (v == ~0u)
			return -ENODEV;		/* the card is gone */
		if (!(v & 1))
			return 0;
		if (time_after(jiffies, end))
			return -EBUSY;
		usleep_range(1000, 2000);
	}
}

void bfa_hw_sem_put(struct bfa_port *port, unsigned int sem)
{
	wr(port, REG_SEM(sem), 1);
}

/* which: 0 = this port, 1 = the other port of the ASIC */
u32 bfa_hw_fwstate(struct bfa_port *port, unsigned int which)
{
	return rd(port, REG_FWSTATE(port->fn ^ which));
}

void bfa_hw_set_fwstate(struct bfa_port *port, unsigned int which, u32 state)
{
	u32 reg = REG_FWSTATE(port->fn ^ which);

	wr(port, reg, (rd(port, reg) & ~BFA_FWS_STATE) | state);
}

void bfa_hw_set_join(struct bfa_port *port, bool join)
{
	u32 v = rd(port, REG_FWSTATE(port->fn));

	wr(port, REG_FWSTATE(port->fn),
	   join ? v | BFA_FWS_JOIN : v & ~BFA_FWS_JOIN);
}

u32 bfa_hw_heartbeat(struct bfa_port *port)
{
	return rd(port, REG_HEARTBEAT(port->fn));
}

/* ---- chip init, shared memory, processors ------------------------------ */

/*
 * Halt the processors, then clocks and local memory, before a download.
 * Both ports' firmware state goes back to UNINIT: the whole ASIC
 * restarts.  Only this function's interrupts are masked: the other port's
 * driver must still hear that its firmware restarted.
 */
void bfa_hw_chip_init(struct bfa_port *port)
{
	unsigned int p;
	u32 v;
	int err;

	err = bfa_hw_sem_get(port, BFA_SEM_INIT, 100);
	bfa_hw_lpu_run(port, false);
	for (p = 0; p < 2; p++)
		wr(port, REG_FWSTATE(p), rd(port, REG_FWSTATE(p)) & ~BFA_FWS_STATE);
	wr(port, REG_MASK(port->fn), ~0u);
	wr(port, REG_CAUSE(port->fn), ~0u);
	wr(port, REG_PLL_SCLK, PLL_SOFT_RESET);
	wr(port, REG_PLL_SCLK, PLL_SOFT_RESET | PLL_BYPASS);
	wr(port, REG_PLL_LCLK, PLL_SOFT_RESET);
	wr(port, REG_PLL_LCLK, PLL_SOFT_RESET | PLL_BYPASS);
	udelay(2);
	wr(port, REG_PLL_SCLK, PLL_SOFT_RESET);
	wr(port, REG_PLL_LCLK, PLL_SOFT_RESET);
	wr(port, REG_PLL_SCLK, PLL_SOFT_RESET | PLL_SCLK_VALUE);
	wr(port, REG_PLL_LCLK, PLL_SOFT_RESET | PLL_LCLK_VALUE);
	usleep_range(2000, 3000);
	wr(port, REG_CAUSE(port->fn), ~0u);
	wr(port, REG_PLL_SCLK, PLL_SCLK_VALUE);
	wr(port, REG_PLL_LCLK, PLL_LCLK_VALUE);

	v = rd(port, REG_PSS) & ~(PSS_LMEM_RESET | PSS_I2C_DIV);
	v |= PSS_LMEM_INIT | FIELD_PREP(PSS_I2C_DIV, 3);
	wr(port, REG_PSS, v);
	if (readl_poll_timeout(port->bar + REG_PSS, v, v & PSS_LMEM_DONE,
			       10, 10000))
		dev_warn(&port->pdev->dev, "local memory init did not finish\n");
	wr(port, REG_PSS, v & ~(PSS_LMEM_INIT | PSS_LMEM_DONE));
	if (!err)
		bfa_hw_sem_put(port, BFA_SEM_INIT);
}

/*
 * Shared memory through the window: the host swaps each 32-bit word, so
 * that memory holds the bytes in the order of the firmware file.
 */
void bfa_hw_smem_write(struct bfa_port *port, u32 addr, u32 val)
{
	wr(port, REG_PAGE(port->fn), SMEM_FIRST_PAGE + addr / SMEM_WINDOW_SIZE);
	wr(port, SMEM_WINDOW + addr % SMEM_WINDOW_SIZE, val);
}

/* A firmware image into shared memory from 0, one window page at a time. */
void bfa_hw_smem_load(struct bfa_port *port, const u8 *data, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += 4) {
		if (i % SMEM_WINDOW_SIZE == 0)
			wr(port, REG_PAGE(port->fn),
			   SMEM_FIRST_PAGE + i / SMEM_WINDOW_SIZE);
		wr(port, SMEM_WINDOW + i % SMEM_WINDOW_SIZE,
		   get_unaligned_be32(data + i));
	}
}

u32 bfa_hw_smem_read(struct bfa_port *port, u32 addr)
{
	wr(port, REG_PAGE(port->fn), SMEM_FIRST_PAGE + addr / SMEM_WINDOW_SIZE);
	return rd(port, SMEM_WINDOW + addr % SMEM_WINDOW_SIZE);
}

/* Out of reset, processor 0 runs the firmware; a stop holds both. */
void bfa_hw_lpu_run(struct bfa_port *port, bool run)
{
	u32 v = rd(port, REG_PSS);

	wr(port, REG_PSS, run ? v & ~PSS_LPU0_RESET :
	   v | PSS_LPU0_RESET | PSS_LPU1_RESET);
}

/* Tell the other port's driver that the firmware restarts under it. */
void bfa_hw_notify_fail(struct bfa_port *port)
{
	wr(port, REG_ERR_SET, ~0u);
	rd(port, REG_ERR_SET);
}

/* ---- interrupts -------------------------------------------------------- */

/*
 * On: stale causes cleared, mailbox and errors unmasked; the response
 * rings' causes only while the rings are configured.
 */
void bfa_hw_irq_on(struct bfa_port *port, bool on)
{
	u32 causes = CAUSE_CTL(port->fn);

	if (on && port->configured)
		causes |= CAUSE_RSP(port->fn);
	if (on)
		wr(port, REG_CAUSE(port->fn), causes);
	wr(port, REG_MASK(port->fn), on ? ~causes : ~0u);
}

/* A message from the firmware: take it, then let the firmware go on. */
static void bfa_hw_mbox_take(struct bfa_port *port)
{
	u8 msg[BFA_MBOX_BYTES];
	struct bfa_msg_hdr *hdr = (void *)msg;
	unsigned int i;

	if (!(rd(port, REG_MBOX_STAT(port->fn)) & 1))
		return;
	for (i = 0; i < BFA_MBOX_BYTES / 4; i++)
		put_unaligned_be32(rd(port, REG_MBOX_OUT(port->fn) + 4 * i),
				   msg + 4 * i);
	wr(port, REG_MBOX_STAT(port->fn), 1);
	rd(port, REG_MBOX_STAT(port->fn));

	if (hdr->class == BFA_MC_IOC && hdr->id == BFA_IOC_HEARTBEAT)
		return;
	if (READ_ONCE(port->mbox_wait) == (hdr->class << 8 | hdr->id)) {
		memcpy(port->mbox_reply, msg, sizeof(msg));
		WRITE_ONCE(port->mbox_wait, 0);
		complete(&port->mbox_done);
		return;
	}
	dev_warn_ratelimited(&port->pdev->dev,
			     "unexpected firmware message %u/%u dropped\n",
			     hdr->class, hdr->id);
}

static void bfa_hw_errors(struct bfa_port *port, u32 cause)
{
	wr(port, REG_CAUSE(port->fn), cause & CAUSE_ERRORS);
	if (cause & CAUSE_PSS_ERR)
		wr(port, REG_PSS_ERR, rd(port, REG_PSS_ERR));
	/* the error set register alone is the other port's notice */
	if (cause & CAUSE_FW_ERRORS)
		dev_err_ratelimited(&port->pdev->dev,
				    "firmware error interrupt 0x%08x\n", cause);
	bfa_ioc_failed(port, cause & CAUSE_FW_ERRORS);
}

static irqreturn_t bfa_hw_ctl_irq(int irq, void *data)
{
	struct bfa_port *port = data;
	u32 cause = rd(port, REG_CAUSE(port->fn));

	/* all ones: the card is gone */
	if (cause == ~0u)
		return IRQ_NONE;
	cause &= causes_of(port->fn);
	if (!cause)
		return IRQ_NONE;
	if (cause & CAUSE_RSP(port->fn)) {
		wr(port, REG_CAUSE(port->fn), cause & CAUSE_RSP(port->fn));
		bfa_queue_poll(port);
	}
	if (cause & CAUSE_MBOX(port->fn))
		bfa_hw_mbox_take(port);
	if (cause & CAUSE_ERRORS)
		bfa_hw_errors(port, cause);
	return IRQ_HANDLED;
}

/*
 * MSI-X entry n fires for cause bit n: allocate the whole table and hook
 * the entries of this function's mailbox and of the errors.  Without
 * MSI-X every cause comes on the INTx line.
 */
int bfa_hw_irq_setup(struct bfa_port *port, bool try_msix)
{
	struct pci_dev *pdev = port->pdev;
	unsigned int v;
	int err;

	bfa_hw_irq_on(port, false);
	port->msix = try_msix &&
		pci_alloc_irq_vectors(pdev, MSIX_VECTORS, MSIX_VECTORS,
				      PCI_IRQ_MSIX) == MSIX_VECTORS;
	if (!port->msix) {
		err = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_LEGACY);
		if (err < 0)
			return err;
		return request_irq(pci_irq_vector(pdev, 0), bfa_hw_ctl_irq,
				   IRQF_SHARED, BFA_NAME, port);
	}
	for (v = 0; v < MSIX_VECTORS; v++) {
		if (!(causes_of(port->fn) & BIT(v)))
			continue;
		err = request_irq(pci_irq_vector(pdev, v), bfa_hw_ctl_irq, 0,
				  BFA_NAME, port);
		if (err)
			goto undo;
	}
	return 0;
undo:
	while (v--)
		if (causes_of(port->fn) & BIT(v))
			free_irq(pci_irq_vector(pdev, v), port);
	pci_free_irq_vectors(pdev);
	return err;
}

void bfa_hw_irq_teardown(struct bfa_port *port)
{
	struct pci_dev *pdev = port->pdev;
	unsigned int v;

	bfa_hw_irq_on(port, false);
	if (!port->msix) {
		free_irq(pci_irq_vector(pdev, 0), port);
	} else {
		for (v = 0; v < MSIX_VECTORS; v++)
			if (causes_of(port->fn) & BIT(v))
				free_irq(pci_irq_vector(pdev, v), port);
	}
	pci_free_irq_vectors(pdev);
}

/* ---- mailbox ----------------------------------------------------------- */

/* A message the firmware left from before this driver: drop it. */
void bfa_hw_mbox_flush(struct bfa_port *port)
{
	if (rd(port, REG_MBOX_STAT(port->fn)))
		wr(port, REG_MBOX_STAT(port->fn), 1);
}

/*
 * Send one request and wait for the reply of its class with id reply_id
 * (copied to port->mbox_reply).  The firmware takes a request by clearing
 * the doorbell; both steps are bounded.
 */
int bfa_hw_mbox_call(struct bfa_port *port, const void *req, size_t len,
		     u8 reply_id, unsigned int timeout_ms)
{
	u8 msg[BFA_MBOX_BYTES] = { 0 };
	unsigned int i;
	u32 v;
	int err;

	if (WARN_ON(len > sizeof(msg)))
		return -EINVAL;
	memcpy(msg, req, len);
	mutex_lock(&port->mbox_lock);
	err = readl_poll_timeout(port->bar + REG_DOORBELL(port->fn), v, !(v & 1),
				 100, 100000);
	if (err)
		goto out;
	reinit_completion(&port->mbox_done);
	WRITE_ONCE(port->mbox_wait, msg[0] << 8 | reply_id);
	for (i = 0; i < BFA_MBOX_BYTES / 4; i++)
		wr(port, REG_MBOX_IN(port->fn) + 4 * i,
		   get_unaligned_le32(msg + 4 * i));
	wr(port, REG_DOORBELL(port->fn), 1);
	rd(port, REG_DOORBELL(port->fn));
	if (!wait_for_completion_timeout(&port->mbox_done,
					 msecs_to_jiffies(timeout_ms))) {
		WRITE_ONCE(port->mbox_wait, 0);
		err = -ETIMEDOUT;
	}
out:
	mutex_unlock(&port->mbox_lock);
	return err;
}
