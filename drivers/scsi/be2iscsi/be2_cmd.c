// SPDX-License-Identifier: GPL-2.0
/*
 * BladeEngine 2 iSCSI: the firmware's command layer.  Until the MCC ring
 * is up commands go through the bootstrap mailbox, polled; after that
 * through the ring, completed by its CQ.  A command the firmware holds
 * longer than BE2_CMD_TIMEOUT_MS marks the card dead: nothing more is
 * posted to it.
 */
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/string.h>

#include "be2iscsi.h"

/* the host's marks of a driver taking the function over and leaving it */
static const u8 be2_mark_load[8] = { 0xff, 0x12, 0x34, 0xff,
				     0xff, 0x56, 0x78, 0xff };
static const u8 be2_mark_unload[8] = { 0xff, 0xaa, 0xbb, 0xff,
				       0xff, 0xcc, 0xdd, 0xff };

static int be2_mbox_wait(struct be2_hba *hba)
{
	unsigned long end = jiffies + msecs_to_jiffies(BE2_CMD_TIMEOUT_MS);

	while (!(ioread32(hba->db + BE2_DB_MBOX) & BE2_MBOX_READY)) {
		if (time_after(jiffies, end)) {
			dev_err(&hba->pdev->dev, "mailbox timed out\n");
			hba->dead = true;
			return -ETIMEDOUT;
		}
		usleep_range(50, 200);
	}
	return 0;
}

/* Post the mailbox as it is and wait for its completion. */
static int be2_mbox_post(struct be2_hba *hba)
{
	u64 pa = hba->mbox_pa;
	u32 flags;
	int rc;

	if (hba->dead)
		return -EIO;
	rc = be2_mbox_wait(hba);
	if (rc)
		return rc;
	iowrite32((upper_32_bits(pa) & ~3u) | BE2_MBOX_HI,
		  hba->db + BE2_DB_MBOX);
	rc = be2_mbox_wait(hba);
	if (rc)
		return rc;
	iowrite32((u32)(pa >> 4) << 2, hba->db + BE2_DB_MBOX);
	rc = be2_mbox_wait(hba);
	if (rc)
		return rc;
	flags = le32_to_cpu(READ_ONCE(hba->mbox->cqe.flags));
	if (!(flags & BE2_MCQE_VALID)) {
		dev_err(&hba->pdev->dev, "mailbox completed without status\n");
		return -EIO;
	}
	return le32_to_cpu(hba->mbox->cqe.status) & 0xffff;
}

static int be2_mbox_cmd(struct be2_hba *hba, struct be2_mcc_wrb *wrb)
{
	int rc;

	mutex_lock(&hba->mbox_lock);
	memset(hba->mbox, 0, sizeof(*hba->mbox));
	hba->mbox->wrb = *wrb;
	rc = be2_mbox_post(hba);
	if (rc >= 0)
		*wrb = hba->mbox->wrb;
	mutex_unlock(&hba->mbox_lock);
	return rc;
}

/* The driver takes the function over (load) or hands it back. */
int be2_fw_init(struct be2_hba *hba, bool load)
{
	int rc;

	mutex_lock(&hba->mbox_lock);
	memset(hba->mbox, 0, sizeof(*hba->mbox));
	memcpy(hba->mbox, load ? be2_mark_load : be2_mark_unload, 8);
	rc = be2_mbox_post(hba);
	mutex_unlock(&hba->mbox_lock);
	return rc;
}

/*
 * Put a WRB on the ring if its next entry is free: 0 with the entry's
 * position in *pos, -EAGAIN if that entry's command is still out, -EIO if
 * the ring is gone.  The response will be copied to resp.
 */
static int be2_mcc_try_post(struct be2_hba *hba, struct be2_mcc_wrb *wrb,
			    struct be2_mcc_wrb *resp, u32 *pos)
{
	struct be2_mcc_slot *slot;
	int rc = 0;

	spin_lock_bh(&hba->mcc_lock);
	if (!hba->mccq.live || hba->dead) {
		rc = -EIO;
		goto out;
	}
	*pos = hba->mccq.tail;
	slot = &hba->mcc_slot[*pos];
	if (slot->busy) {
		rc = -EAGAIN;
		goto out;
	}
	slot->busy = true;
	slot->resp = (struct be2_cmd_hdr *)resp;
	slot->status = 0;
	reinit_completion(&slot->done);
	wrb->tag0 = *pos;
	memcpy(be2_ring_at(&hba->mccq, *pos), wrb, sizeof(*wrb));
	hba->mccq.tail = (*pos + 1) % hba->mccq.entries;
	wmb();	/* the WRB before the doorbell */
	iowrite32(hba->mccq.id | 1u << 16, hba->db + BE2_DB_MCC);
out:
	spin_unlock_bh(&hba->mcc_lock);
	return rc;
}

/*
 * Post a WRB on the MCC ring; the embedded response comes back into wrb.
 * A non-embedded command travels in hba->cmd_buf (big, big_len).
 */
static int be2_mcc_cmd(struct be2_hba *hba, struct be2_mcc_wrb *wrb,
		       void *big, u32 big_len)
{
	unsigned long end = jiffies + msecs_to_jiffies(BE2_CMD_TIMEOUT_MS);
	struct be2_mcc_slot *slot;
	struct be2_mcc_wrb resp;
	u32 pos;
	int rc;

	if (big) {
		mutex_lock(&hba->cmd_buf_lock);
		memcpy(hba->cmd_buf, big, big_len);
	}
	while ((rc = be2_mcc_try_post(hba, wrb, &resp, &pos)) == -EAGAIN) {
		if (time_after(jiffies, end)) {
			rc = -ETIMEDOUT;
			goto out;
		}
		usleep_range(100, 500);
	}
	if (rc)
		goto out;
	slot = &hba->mcc_slot[pos];
	if (!wait_for_completion_timeout(&slot->done,
					 msecs_to_jiffies(BE2_CMD_TIMEOUT_MS))) {
		spin_lock_bh(&hba->mcc_lock);
		if (slot->resp) {
			/* the slot stays taken: the card may still answer */
			slot->resp = NULL;
			hba->dead = true;
			spin_unlock_bh(&hba->mcc_lock);
			dev_err(&hba->pdev->dev,
				"command %u/%u timed out; the card is not answering\n",
				wrb->payload.embedded[1], wrb->payload.embedded[0]);
			be2_conns_fail(hba);
			/* nothing is posted to a dead card: cmd_buf is idle */
			rc = -ETIMEDOUT;
			goto out;
		}
		spin_unlock_bh(&hba->mcc_lock);
	}
	rc = slot->status;
	if (rc < 0)
		goto out;
	*wrb = resp;
	if (big)
		memcpy(big, hba->cmd_buf, big_len);
out:
	if (big)
		mutex_unlock(&hba->cmd_buf_lock);
	return rc;
}

/* MCC completions and async events, from the MCC EQ's poll. */
void be2_mcc_process(struct be2_hba *hba)
{
	struct be2_ring *cq = &hba->cq[1];
	u32 n = 0;

	spin_lock(&hba->mcc_lock);
	while (n < cq->entries) {
		struct be2_mcc_cqe *e = be2_ring_at(cq, cq->tail);
		u32 flags = le32_to_cpu(READ_ONCE(e->flags));
		struct be2_mcc_slot *slot;
		u32 tag;

		if (!(flags & BE2_MCQE_VALID))
			break;
		rmb();	/* the entry after its valid bit */
		if (flags & BE2_MCQE_ASYNC) {
			if (BE2_MCQE_EVENT(flags) == BE2_EVENT_LINK_STATE)
				be2_link_event(hba, e);
		} else if (flags & BE2_MCQE_COMPLETED) {
			tag = e->tag0;
			if (tag >= BE2_MCC_ENTRIES ||
			    !hba->mcc_slot[tag].busy) {
				dev_warn_ratelimited(&hba->pdev->dev,
						     "MCC completion with tag %u dropped\n",
						     tag);
			} else {
				slot = &hba->mcc_slot[tag];
				if (slot->resp) {
					memcpy(slot->resp,
					       be2_ring_at(&hba->mccq, tag),
					       sizeof(struct be2_mcc_wrb));
					slot->status =
						le32_to_cpu(e->status) & 0xffff;
					slot->resp = NULL;
					complete(&slot->done);
				}
				slot->busy = false;
			}
		}
		WRITE_ONCE(e->flags, 0);
		cq->tail = (cq->tail + 1) % cq->entries;
		n++;
	}
	spin_unlock(&hba->mcc_lock);
	if (cq->live)
		be2_ring_cq_db(hba, cq->id, n, true);
}

/* Fail every command waiting on the ring (the card is going away). */
void be2_mcc_fail_all(struct be2_hba *hba)
{
	unsigned int i;

	spin_lock_bh(&hba->mcc_lock);
	hba->mccq.live = false;
	for (i = 0; i < BE2_MCC_ENTRIES; i++) {
		struct be2_mcc_slot *slot = &hba->mcc_slot[i];

		if (slot->busy && slot->resp) {
			slot->status = -EIO;
			slot->resp = NULL;
			complete(&slot->done);
		}
	}
	spin_unlock_bh(&hba->mcc_lock);
}

/*
 * Run a command: req (len bytes) starts with its header and gets the
 * response.  0 when done, a firmware status (> 0) when refused, or an
 * errno.
 */
int be2_cmd(struct be2_hba *hba, u8 sub, u8 op, void *req, u32 len)
{
	struct be2_cmd_hdr *hdr = req;
	struct be2_mcc_wrb wrb = {};
	bool big = len > BE2_EMBED_BYTES;
	int rc;

	if (len < sizeof(*hdr) || len > BE2_CMD_BUF_BYTES)
		return -EINVAL;
	if (hba->dead)
		return -EIO;
	hdr->opcode = op;
	hdr->subsystem = sub;
	hdr->timeout = cpu_to_le32(BE2_CMD_TIMEOUT_MS / 1000);
	hdr->req_len = cpu_to_le32(len - sizeof(*hdr));
	hdr->version = 0;
	wrb.payload_len = cpu_to_le32(len);
	if (big) {
		wrb.flags = cpu_to_le32(1u << BE2_WRB_SGE_SHIFT);
		wrb.payload.sge.pa_lo = cpu_to_le32(lower_32_bits(hba->cmd_buf_pa));
		wrb.payload.sge.pa_hi = cpu_to_le32(upper_32_bits(hba->cmd_buf_pa));
		wrb.payload.sge.len = cpu_to_le32(len);
	} else {
		wrb.flags = cpu_to_le32(BE2_WRB_EMBEDDED);
		memcpy(wrb.payload.embedded, req, len);
	}

	if (hba->mccq.live) {
		rc = be2_mcc_cmd(hba, &wrb, big ? req : NULL, len);
	} else if (big) {
		mutex_lock(&hba->cmd_buf_lock);
		memcpy(hba->cmd_buf, req, len);
		rc = be2_mbox_cmd(hba, &wrb);
		if (rc >= 0)
			memcpy(req, hba->cmd_buf, len);
		mutex_unlock(&hba->cmd_buf_lock);
	} else {
		rc = be2_mbox_cmd(hba, &wrb);
	}
	if (rc >= 0 && !big)
		memcpy(req, wrb.payload.embedded, len);
	if (rc > 0)
		dev_dbg(&hba->pdev->dev, "command %u/%u: status %d/%u\n", sub,
			op, rc, be2_cmd_addl(hdr));
	return rc;
}

struct be2_fw_config_req {
	struct be2_cmd_hdr hdr;
	__le32 config_number;
	__le32 asic_rev;
	__le32 phys_port;
	__le32 function_mode;
	struct {
		__le32 mode;
		__le32 etx_base, etx_count;
		__le32 cid_base, cid_count;
		__le32 rq_base, rq_count;
		__le32 dq_base, dq_count;
		__le32 lro_base, lro_count;
		__le32 icd_base, icd_count;
	} ulp[2];
	__le32 function_caps;
	__le32 rsvd[8];
} __packed;

/* The CIDs and ICDs the firmware gives the iSCSI ULP. */
int be2_fw_config(struct be2_hba *hba)
{
	struct be2_fw_config_req r = {};
	int rc;

	rc = be2_cmd(hba, BE2_SUB_COMMON, BE2_OP_FW_CONFIG, &r, sizeof(r));
	if (rc) {
		dev_err(&hba->pdev->dev, "firmware configuration query failed (%d)\n",
			rc);
		return rc < 0 ? rc : -EIO;
	}
	hba->cid_base = le32_to_cpu(r.ulp[0].cid_base);
	hba->cid_count = min_t(u32, le32_to_cpu(r.ulp[0].cid_count),
			       BE2_MAX_CIDS);
	hba->icd_base = le32_to_cpu(r.ulp[0].icd_base);
	hba->icd_count = min_t(u32, le32_to_cpu(r.ulp[0].icd_count),
			       BE2_MAX_ICDS);
	/* whole blocks of BE2_CMDS_MAX: one per session */
	hba->icd_count -= hba->icd_count % BE2_CMDS_MAX;
	if (!le32_to_cpu(r.ulp[0].mode) || !hba->cid_count ||
	    !hba->icd_count || hba->icd_base > 0xfff - hba->icd_count) {
		dev_err(&hba->pdev->dev,
			"firmware offers no iSCSI initiator (mode 0x%x, %u CIDs, %u ICDs at %u)\n",
			le32_to_cpu(r.ulp[0].mode), hba->cid_count,
			hba->icd_count, hba->icd_base);
		return -ENODEV;
	}
	return 0;
}

struct be2_attr_req {
	struct be2_cmd_hdr hdr;
	char flash_ver[32];
	char manufacturer[32];
	__le32 modes;
	u8 rsvd0[28];
	char model[32];
	char description[64];
	char serial[32];
	char boot_ver[32];
	char fw_ver[32];
	u8 rsvd1[252];
} __packed;

struct be2_nic_config_req {
	struct be2_cmd_hdr hdr;
	__le32 ports;
	__le32 speed;
	__le32 max_speed;
	__le32 link_state;
	__le32 max_frame;
	__le16 mac_len;
	u8 mac[ETH_ALEN];
} __packed;

struct be2_hba_name_req {
	struct be2_cmd_hdr hdr;
	__le32 flags;
	char iname[224];
	char alias[32];
} __packed;

struct be2_if_handles_req {
	struct be2_cmd_hdr hdr;
	__le32 count;
	__le32 handle[1];
} __packed;

/* Firmware version, MAC, the card's initiator name and its interface. */
int be2_read_identity(struct be2_hba *hba)
{
	union {
		struct be2_attr_req attr;
		struct be2_nic_config_req nic;
		struct be2_hba_name_req name;
		struct be2_if_handles_req ifh;
	} *r;
	int rc;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	rc = be2_cmd(hba, BE2_SUB_COMMON, BE2_OP_CNTL_ATTRIBUTES, &r->attr,
		     sizeof(r->attr));
	if (rc)
		goto fail;
	strscpy(hba->fw_ver, r->attr.fw_ver,
		min(sizeof(hba->fw_ver), sizeof(r->attr.fw_ver)));

	memset(r, 0, sizeof(*r));
	rc = be2_cmd(hba, BE2_SUB_ISCSI, BE2_OP_NIC_CONFIG, &r->nic,
		     sizeof(r->nic));
	if (rc)
		goto fail;
	if (le16_to_cpu(r->nic.mac_len) != ETH_ALEN ||
	    !is_valid_ether_addr(r->nic.mac)) {
		dev_err(&hba->pdev->dev, "the card reports no valid MAC address\n");
		rc = -EIO;
		goto out;
	}
	memcpy(hba->mac, r->nic.mac, ETH_ALEN);

	memset(r, 0, sizeof(*r));
	rc = be2_cmd(hba, BE2_SUB_ISCSI_INI, BE2_OP_HBA_NAME, &r->name,
		     sizeof(r->name));
	if (rc)
		goto fail;
	strscpy(hba->iname, r->name.iname, sizeof(hba->iname));

	memset(r, 0, sizeof(*r));
	rc = be2_cmd(hba, BE2_SUB_ISCSI, BE2_OP_IF_HANDLES, &r->ifh,
		     sizeof(r->ifh));
	if (rc)
		goto fail;
	if (!le32_to_cpu(r->ifh.count)) {
		dev_err(&hba->pdev->dev, "the card has no iSCSI interface\n");
		rc = -ENODEV;
		goto out;
	}
	hba->if_handle = le32_to_cpu(r->ifh.handle[0]);
	goto out;
fail:
	dev_err(&hba->pdev->dev, "identity query failed (%d)\n", rc);
	if (rc > 0)
		rc = -EIO;
out:
	kfree(r);
	return rc;
}

struct be2_inv_icds_req {
	struct be2_cmd_hdr hdr;
	__le32 ref_handle;
	__le32 count;
	struct {
		__le16 icd;
		__le16 cid;
	} e[128];
	__le32 rsvd;
} __packed;

/* The card forgets these commands: no more data or status for them. */
int be2_invalidate_icds(struct be2_hba *hba, u16 cid, const u16 *icd,
			unsigned int n)
{
	struct be2_inv_icds_req *r;
	unsigned int i;
	int rc;

	if (!n || n > ARRAY_SIZE(r->e))
		return -EINVAL;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->count = cpu_to_le32(n);
	for (i = 0; i < n; i++) {
		r->e[i].icd = cpu_to_le16(icd[i]);
		r->e[i].cid = cpu_to_le16(cid);
	}
	rc = be2_cmd(hba, BE2_SUB_ISCSI, BE2_OP_INVALIDATE_ICDS, r,
		     sizeof(*r));
	kfree(r);
	return rc > 0 ? -EIO : rc;
}
