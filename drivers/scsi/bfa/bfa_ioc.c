// SPDX-License-Identifier: GPL-2.0
/*
 * Brocade Fibre Channel HBA driver: the IOC, the controller the firmware
 * runs on.
 *
 * Bring-up, in process context and in order: take the IOC semaphore, boot
 * the firmware unless the ASIC already runs this very image (download into
 * shared memory, start the processor, wait for "ready"), ENABLE the port,
 * release the semaphore, read the port's attributes.  Then a heartbeat
 * watch.  A stopped heartbeat or a firmware error interrupt reboots the
 * firmware and enables the port again; the other port of the ASIC hears of
 * the reboot and re-enables without one.
 */
#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/firmware.h>
#include <linux/iopoll.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include <asm/unaligned.h>

#include "bfa.h"

#define FW_HDR_LEN		48
#define FW_SIGNATURE		0xbfadbfad	/* little-endian, at 0 */
#define FW_VERSION		24		/* major, minor, maint, patch */
#define FW_MAX_LEN		(2u << 20)	/* the shared memory */
#define SMEM_DEVMODE		4
#define SMEM_BOOT_TYPE		8
#define SMEM_BOOT_ENV		12
#define DEVMODE_CB_FC		0x01010101	/* CB ASIC, FC, both ports FC */
#define PCI_CLASS_FC		0x0c04

#define SEM_TIMEOUT_MS		10000
#define BOOT_TIMEOUT_MS		9000
#define REPLY_TIMEOUT_MS	3000
#define HEARTBEAT_MS		500
#define RETRY_MS		10000

static_assert(sizeof(struct bfa_ioc_attr) == 752);

/* The image must be one the firmware loader of this ASIC accepts. */
static int bfa_ioc_firmware_check(struct bfa_port *port)
{
	const struct firmware *fw = port->fw;
	const u8 *v = fw->data + FW_VERSION;

	if (fw->size < FW_HDR_LEN || fw->size % 4 || fw->size > FW_MAX_LEN ||
	    get_unaligned_le32(fw->data) != FW_SIGNATURE) {
		dev_err(&port->pdev->dev,
			"%s: not a firmware image for this card (%zu bytes)\n",
			BFA_FW_CB, fw->size);
		return -EINVAL;
	}
	dev_dbg(&port->pdev->dev, "firmware image %u.%u.%u.%u, %zu bytes\n",
		v[0], v[1], v[2], v[3], fw->size);
	return 0;
}

/* Does shared memory hold our image, booted for a driver (not a BIOS)? */
static bool bfa_ioc_smem_is_ours(struct bfa_port *port)
{
	unsigned int i;

	for (i = 0; i < FW_HDR_LEN; i += 4) {
		u32 want = get_unaligned_be32(port->fw->data + i);

		if (i == SMEM_DEVMODE)
			continue;
		if (i == SMEM_BOOT_TYPE || i == SMEM_BOOT_ENV)
			want = 0;
		if (bfa_hw_smem_read(port, i) != want)
			return false;
	}
	return true;
}

static int bfa_ioc_boot(struct bfa_port *port)
{
	u32 state;
	int err;

	bfa_hw_chip_init(port);
	bfa_hw_set_fwstate(port, 0, BFA_FWS_INITING);
	bfa_hw_set_fwstate(port, 1, BFA_FWS_INITING);
	bfa_hw_mbox_flush(port);
	bfa_hw_smem_load(port, port->fw->data, port->fw->size);
	bfa_hw_smem_write(port, SMEM_DEVMODE, DEVMODE_CB_FC);
	bfa_hw_smem_write(port, SMEM_BOOT_TYPE, 0);
	bfa_hw_smem_write(port, SMEM_BOOT_ENV, 0);
	bfa_hw_lpu_run(port, true);

	err = read_poll_timeout(bfa_hw_fwstate, state,
				(state & BFA_FWS_STATE) == BFA_FWS_DISABLED,
				10000, BOOT_TIMEOUT_MS * 1000, false, port, 0);
	if (err)
		dev_err(&port->pdev->dev,
			"firmware did not start within %u ms (state %u)\n",
			BOOT_TIMEOUT_MS, state & BFA_FWS_STATE);
	return err;
}

static int bfa_ioc_enable(struct bfa_port *port)
{
	struct bfa_ioc_ctl_req req = {
		.hdr = { .class = BFA_MC_IOC, .id = BFA_IOC_ENABLE,
			 .dest = port->fn },
		.pci_class = cpu_to_be16(PCI_CLASS_FC),
		.tv_sec = cpu_to_be32(lower_32_bits(ktime_get_real_seconds())),
	};
	int err;

	bfa_hw_irq_on(port, true);
	err = bfa_hw_mbox_call(port, &req, sizeof(req),
			       BFA_REPLY(BFA_IOC_ENABLE), REPLY_TIMEOUT_MS);
	if (err)
		dev_err(&port->pdev->dev, "firmware did not enable the port: %d\n",
			err);
	return err;
}

static int bfa_ioc_getattr(struct bfa_port *port)
{
	struct bfa_ioc_getattr_req req = {
		.hdr = { .class = BFA_MC_IOC, .id = BFA_IOC_GETATTR,
			 .dest = port->fn },
	};
	const struct bfa_ioc_attr *a = port->attr;
	int err;

	bfa_dma_set(&req.addr, port->attr_dma);
	memset(port->attr, 0, sizeof(*port->attr));
	err = bfa_hw_mbox_call(port, &req, sizeof(req),
			       BFA_REPLY(BFA_IOC_GETATTR), REPLY_TIMEOUT_MS);
	if (err) {
		dev_err(&port->pdev->dev, "no port attributes from the firmware: %d\n",
			err);
		return err;
	}
	port->wwpn = be64_to_cpu(a->pwwn);
	port->wwnn = be64_to_cpu(a->nwwn);
	if (!port->wwpn || !port->wwnn) {
		dev_err(&port->pdev->dev, "the firmware reports no port name\n");
		return -EIO;
	}
	strscpy(port->serial, a->serial, sizeof(port->serial));
	strscpy(port->fw_version, a->fw_version, sizeof(port->fw_version));
	port->card_type = be32_to_cpu(a->card_type);
	port->speed_gbit = FIELD_GET(BFA_PROP_SPEED, be32_to_cpu(a->props));
	port->max_frame = be16_to_cpu(a->max_frame);
	port->rx_bb_credit = a->rx_bb_credit;
	return 0;
}

/*
 * Bring the IOC of this port up.  @reboot: the firmware failed under us;
 * reboot it unless the other port's driver already has.
 */
static int bfa_ioc_up(struct bfa_port *port, bool reboot)
{
	u32 state, other;
	int err;

	err = bfa_hw_sem_get(port, BFA_SEM_IOC, SEM_TIMEOUT_MS);
	if (err) {
		dev_err(&port->pdev->dev, "IOC semaphore not free: %d\n", err);
		return err;
	}
	state = bfa_hw_fwstate(port, 0) & BFA_FWS_STATE;
	other = bfa_hw_fwstate(port, 1);
	/*
	 * Ready for us (left so by the other port or by our last unload), or
	 * running and not failed: no boot needed.
	 */
	if ((state == BFA_FWS_DISABLED ||
	     (state == BFA_FWS_OP && !reboot)) && bfa_ioc_smem_is_ours(port)) {
		bfa_hw_mbox_flush(port);
	} else {
		err = bfa_ioc_boot(port);
		/* the other port's driver lost its firmware: tell it */
		if (!err && (other & BFA_FWS_JOIN))
			bfa_hw_notify_fail(port);
	}
	if (!err) {
		bfa_hw_set_join(port, true);
		err = bfa_ioc_enable(port);
	}
	if (err)
		bfa_hw_set_fwstate(port, 0, BFA_FWS_FAIL);
	bfa_hw_sem_put(port, BFA_SEM_IOC);
	if (!err)
		err = bfa_ioc_getattr(port);
	if (!err)
		err = bfa_queue_configure(port);
	if (!err)
		err = bfa_port_enable(port);
	if (!err)
		bfa_els_rings(port, true);
	if (err) {
		bfa_queue_stop(port);
		bfa_hw_irq_on(port, false);
	}
	return err;
}

static void bfa_ioc_recover(struct work_struct *work);
static void bfa_ioc_heartbeat(struct work_struct *work);

/* Once per probe: check the image, bring the IOC up, watch it. */
int bfa_ioc_start(struct bfa_port *port)
{
	int err;

	INIT_DELAYED_WORK(&port->hb_work, bfa_ioc_heartbeat);
	INIT_WORK(&port->recover_work, bfa_ioc_recover);
	WRITE_ONCE(port->removing, false);
	err = bfa_ioc_firmware_check(port);
	if (err)
		return err;
	mutex_lock(&port->ioc_lock);
	err = bfa_ioc_up(port, false);
	if (!err) {
		port->operational = true;
		port->heartbeat = bfa_hw_heartbeat(port);
		schedule_delayed_work(&port->hb_work,
				      msecs_to_jiffies(HEARTBEAT_MS));
		dev_info(&port->pdev->dev,
			 "IOC operational: firmware %s, WWPN %016llx, WWNN %016llx, %u Gbit/s, serial %s, model %u\n",
			 port->fw_version, port->wwpn, port->wwnn,
			 port->speed_gbit, port->serial, port->card_type);
	}
	mutex_unlock(&port->ioc_lock);
	return err;
}

/* Orderly: DISABLE the port, leave the firmware running for the next load. */
void bfa_ioc_stop(struct bfa_port *port)
{
	struct bfa_ioc_ctl_req req = {
		.hdr = { .class = BFA_MC_IOC, .id = BFA_IOC_DISABLE,
			 .dest = port->fn },
		.pci_class = cpu_to_be16(PCI_CLASS_FC),
	};
	bool was_up;

	mutex_lock(&port->ioc_lock);
	port->removing = true;
	was_up = port->operational;
	port->operational = false;
	mutex_unlock(&port->ioc_lock);
	cancel_delayed_work_sync(&port->hb_work);
	cancel_work_sync(&port->recover_work);

	mutex_lock(&port->ioc_lock);
	if (was_up &&
	    bfa_hw_mbox_call(port, &req, sizeof(req),
			     BFA_REPLY(BFA_IOC_DISABLE), REPLY_TIMEOUT_MS)) {
		dev_warn(&port->pdev->dev, "firmware did not disable the port\n");
		bfa_hw_set_fwstate(port, 0, BFA_FWS_FAIL);
	}
	bfa_queue_stop(port);
	bfa_port_offline(port);
	if (!bfa_hw_sem_get(port, BFA_SEM_IOC, SEM_TIMEOUT_MS)) {
		bfa_hw_set_join(port, false);
		bfa_hw_sem_put(port, BFA_SEM_IOC);
	}
	bfa_hw_irq_on(port, false);
	mutex_unlock(&port->ioc_lock);
}

/*
 * From any context: the firmware failed (@hard: error interrupt, stopped
 * heartbeat), or the other port's driver says it rebooted the firmware.
 */
void bfa_ioc_failed(struct bfa_port *port, bool hard)
{
	if (hard)
		set_bit(0, &port->recover_hard);
	if (!READ_ONCE(port->removing))
		schedule_work(&port->recover_work);
}

static void bfa_ioc_recover(struct work_struct *work)
{
	struct bfa_port *port = container_of(work, struct bfa_port, recover_work);
	bool hard = test_and_clear_bit(0, &port->recover_hard);
	ktime_t start = ktime_get();
	u32 state;
	int err;

	mutex_lock(&port->ioc_lock);
	if (port->removing)
		goto out;
	state = bfa_hw_fwstate(port, 0) & BFA_FWS_STATE;
	if (!hard && port->operational && state == BFA_FWS_OP)
		goto out;		/* a notice of our own reboot */
	port->operational = false;
	bfa_queue_stop(port);
	bfa_port_offline(port);
	err = bfa_ioc_up(port, hard);
	if (err) {
		dev_err(&port->pdev->dev, "IOC recovery failed (%d), retrying in %u s\n",
			err, RETRY_MS / 1000);
		set_bit(0, &port->recover_hard);
		mod_delayed_work(system_wq, &port->hb_work,
				 msecs_to_jiffies(RETRY_MS));
		goto out;
	}
	port->operational = true;
	/* a full period from the new baseline, not what was pending */
	port->heartbeat = bfa_hw_heartbeat(port);
	mod_delayed_work(system_wq, &port->hb_work,
			 msecs_to_jiffies(HEARTBEAT_MS));
	dev_info(&port->pdev->dev, "IOC recovered in %lld ms\n",
		 ktime_ms_delta(ktime_get(), start));
out:
	mutex_unlock(&port->ioc_lock);
}

/* Every half second: the firmware's heartbeat must have moved. */
static void bfa_ioc_heartbeat(struct work_struct *work)
{
	struct bfa_port *port = container_of(to_delayed_work(work),
					     struct bfa_port, hb_work);
	u32 hb;

	if (READ_ONCE(port->removing))
		return;
	if (!READ_ONCE(port->operational)) {
		/* a recovery that failed tries again */
		schedule_work(&port->recover_work);
		return;
	}
	hb = bfa_hw_heartbeat(port);
	if (hb == port->heartbeat) {
		dev_err(&port->pdev->dev, "firmware heartbeat stopped\n");
		bfa_ioc_failed(port, true);
		return;
	}
	port->heartbeat = hb;
	schedule_delayed_work(&port->hb_work, msecs_to_jiffies(HEARTBEAT_MS));
}
