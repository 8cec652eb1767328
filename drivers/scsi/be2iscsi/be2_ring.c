// SPDX-License-Identifier: GPL-2.0
/*
 * BladeEngine 2 iSCSI: the queues the host gives the card.  Event and
 * completion queues, the MCC ring, the default PDU rings with their
 * buffers, the ICDs' SGL pages, and a WRB ring per connection.
 */
#include <linux/dma-mapping.h>
#include <linux/log2.h>
#include <asm/unaligned.h>

#include "be2iscsi.h"

struct be2_pa {
	__le32 lo;
	__le32 hi;
} __packed;

struct be2_eq_create_req {
	struct be2_cmd_hdr hdr;
	__le16 pages;
	__le16 rsvd;
	__le32 ctx[4];
	struct be2_pa pa[8];
} __packed;

struct be2_cq_create_req {
	struct be2_cmd_hdr hdr;
	__le16 pages;
	u8 page_size;
	u8 rsvd;
	__le32 ctx[4];
	struct be2_pa pa[4];
} __packed;

struct be2_mcc_create_req {
	struct be2_cmd_hdr hdr;
	__le16 pages;
	__le16 rsvd;
	__le32 async_events;
	__le32 ctx[4];
	struct be2_pa pa[8];
} __packed;

struct be2_defq_create_req {
	struct be2_cmd_hdr hdr;
	__le16 pages;
	u8 ulp;
	u8 dua;
	__le32 ctx[4];
	struct be2_pa pa[8];
} __packed;

struct be2_wrbq_create_req {
	struct be2_cmd_hdr hdr;
	__le16 pages;
	u8 ulp;
	u8 dua;
	struct be2_pa pa[8];
} __packed;

struct be2_sgl_post_req {
	struct be2_cmd_hdr hdr;
	__le16 pages;
	__le16 first;
	__le32 rsvd;
	struct be2_pa pa[26];
	__le32 rsvd1;
} __packed;

struct be2_destroy_req {
	struct be2_cmd_hdr hdr;
	__le16 id;
	__le16 rsvd;
} __packed;

struct be2_cleanup_req {
	struct be2_cmd_hdr hdr;
	__le16 chute;
	u8 hdr_ring;
	u8 data_ring;
} __packed;

static int be2_ring_alloc(struct be2_hba *hba, struct be2_ring *r,
			  u32 entries, u32 esize)
{
	r->entries = entries;
	r->esize = esize;
	r->tail = 0;
	r->va = dma_alloc_coherent(&hba->pdev->dev, PAGE_ALIGN(entries * esize),
				   &r->pa, GFP_KERNEL);
	return r->va ? 0 : -ENOMEM;
}

void be2_ring_free(struct be2_hba *hba, struct be2_ring *r)
{
	if (r->va)
		dma_free_coherent(&hba->pdev->dev,
				  PAGE_ALIGN(r->entries * r->esize), r->va,
				  r->pa);
	r->va = NULL;
	r->live = false;
}

/* The page list of a ring; the number of pages. */
static u16 be2_ring_pages(const struct be2_ring *r, struct be2_pa *pa,
			  unsigned int max)
{
	unsigned int n = DIV_ROUND_UP(r->entries * r->esize, BE2_PAGE), i;

	for (i = 0; i < n && i < max; i++) {
		u64 a = r->pa + (u64)i * BE2_PAGE;

		pa[i].lo = cpu_to_le32(lower_32_bits(a));
		pa[i].hi = cpu_to_le32(upper_32_bits(a));
	}
	return n;
}

static int be2_destroy(struct be2_hba *hba, u8 sub, u8 op,
		       struct be2_ring *r)
{
	struct be2_destroy_req d = { .id = cpu_to_le16(r->id) };
	int rc = 0;

	if (r->live && !hba->dead)
		rc = be2_cmd(hba, sub, op, &d, sizeof(d));
	r->live = false;
	return rc;
}

/* A create command; the queue's id comes back where its page count was. */
static int be2_ring_made(struct be2_hba *hba, struct be2_ring *r, u8 sub,
			 u8 op, void *req, u32 len)
{
	int rc = be2_cmd(hba, sub, op, req, len);

	if (rc)
		return rc;
	r->id = get_unaligned_le16(req + sizeof(struct be2_cmd_hdr));
	r->live = true;
	return 0;
}

static int be2_eq_create(struct be2_hba *hba, struct be2_ring *r)
{
	struct be2_eq_create_req c = {};
	int rc;

	rc = be2_ring_alloc(hba, r, BE2_EQ_ENTRIES, 4);
	if (rc)
		return rc;
	c.pages = cpu_to_le16(be2_ring_pages(r, c.pa, ARRAY_SIZE(c.pa)));
	c.ctx[0] = cpu_to_le32(BIT(29));			/* valid */
	c.ctx[1] = cpu_to_le32(ilog2(BE2_EQ_ENTRIES / 256) << 26 |
			       BIT(31));			/* armed */
	c.ctx[2] = cpu_to_le32(PCI_FUNC(hba->pdev->devfn) << 4);
	return be2_ring_made(hba, r, BE2_SUB_COMMON, BE2_OP_EQ_CREATE, &c, sizeof(c));
}

static int be2_cq_create(struct be2_hba *hba, struct be2_ring *r,
			 u32 entries, struct be2_ring *eq)
{
	struct be2_cq_create_req c = {};
	int rc;

	rc = be2_ring_alloc(hba, r, entries, sizeof(struct be2_cqe));
	if (rc)
		return rc;
	c.pages = cpu_to_le16(be2_ring_pages(r, c.pa, ARRAY_SIZE(c.pa)));
	c.ctx[0] = cpu_to_le32(ilog2(entries / 256) << 27 | BIT(29) |
			       BIT(31));	/* valid, eventable */
	c.ctx[1] = cpu_to_le32((u32)eq->id << 22 | BIT(31));	/* armed */
	c.ctx[2] = cpu_to_le32(PCI_FUNC(hba->pdev->devfn) << 4);
	return be2_ring_made(hba, r, BE2_SUB_COMMON, BE2_OP_CQ_CREATE, &c, sizeof(c));
}

static int be2_mcc_create(struct be2_hba *hba)
{
	struct be2_mcc_create_req c = {};
	struct be2_ring *r = &hba->mccq;
	int rc;

	rc = be2_ring_alloc(hba, r, BE2_MCC_ENTRIES, sizeof(struct be2_mcc_wrb));
	if (rc)
		return rc;
	c.pages = cpu_to_le16(be2_ring_pages(r, c.pa, ARRAY_SIZE(c.pa)));
	c.async_events = cpu_to_le32(BIT(BE2_EVENT_LINK_STATE));
	c.ctx[0] = cpu_to_le32((ilog2(BE2_MCC_ENTRIES) + 1) << 16 |
			       (u32)hba->cq[1].id << 22);
	c.ctx[1] = cpu_to_le32(BIT(31));			/* valid */
	rc = be2_cmd(hba, BE2_SUB_COMMON, BE2_OP_MCC_CREATE_EXT, &c,
		     sizeof(c));
	if (rc)
		return rc;
	spin_lock_bh(&hba->mcc_lock);
	r->id = le16_to_cpu(c.pages);
	r->live = true;
	spin_unlock_bh(&hba->mcc_lock);
	return 0;
}

static void be2_defq_free(struct be2_hba *hba, struct be2_defq *q)
{
	u32 i;

	for (i = 0; q->buf && i < q->ring.entries; i++)
		if (q->buf[i])
			dma_free_coherent(&hba->pdev->dev, q->bufsize,
					  q->buf[i], q->buf_pa[i]);
	kfree(q->buf);
	kfree(q->buf_pa);
	q->buf = NULL;
	q->buf_pa = NULL;
	be2_ring_free(hba, &q->ring);
}

static int be2_defq_create(struct be2_hba *hba, struct be2_defq *q,
			   u32 bufsize)
{
	struct be2_defq_create_req c = {};
	struct be2_ring *r = &q->ring;
	__le32 *e;
	u32 i;
	int rc;

	rc = be2_ring_alloc(hba, r, BE2_DEFQ_ENTRIES, 8);
	if (rc)
		return rc;
	q->bufsize = bufsize;
	q->buf = kcalloc(r->entries, sizeof(*q->buf), GFP_KERNEL);
	q->buf_pa = kcalloc(r->entries, sizeof(*q->buf_pa), GFP_KERNEL);
	if (!q->buf || !q->buf_pa)
		return -ENOMEM;
	for (i = 0; i < r->entries; i++) {
		q->buf[i] = dma_alloc_coherent(&hba->pdev->dev, bufsize,
					       &q->buf_pa[i], GFP_KERNEL);
		if (!q->buf[i])
			return -ENOMEM;
		e = be2_ring_at(r, i);
		e[0] = cpu_to_le32(upper_32_bits(q->buf_pa[i]));
		e[1] = cpu_to_le32(lower_32_bits(q->buf_pa[i]));
	}
	c.pages = cpu_to_le16(be2_ring_pages(r, c.pa, ARRAY_SIZE(c.pa)));
	c.ctx[0] = cpu_to_le32((ilog2(BE2_DEFQ_ENTRIES) + 1) << 16);
	c.ctx[1] = cpu_to_le32(PCI_FUNC(hba->pdev->devfn) << 14 | BIT(31));
	c.ctx[2] = cpu_to_le32(bufsize | (u32)hba->cq[0].id << 16);
	rc = be2_ring_made(hba, r, BE2_SUB_ISCSI, BE2_OP_DEFQ_CREATE, &c,
			   sizeof(c));
	if (rc)
		return rc;
	q->taken = 0;
	be2_ring_defq_db(hba, r->id, r->entries);
	return 0;
}

/* Buffers of a default ring the host is done with go back to the card. */
void be2_defq_give_back(struct be2_hba *hba, struct be2_defq *q)
{
	q->taken++;
	if (q->taken >= BE2_DEFQ_REPOST) {
		be2_ring_defq_db(hba, q->ring.id, q->taken);
		q->taken = 0;
	}
}

static void be2_sgl_free(struct be2_hba *hba)
{
	unsigned int i;

	for (i = 0; hba->sgl && i < hba->sgl_pages; i++)
		if (hba->sgl[i].va)
			dma_free_coherent(&hba->pdev->dev, BE2_PAGE,
					  hba->sgl[i].va, hba->sgl[i].pa);
	kfree(hba->sgl);
	hba->sgl = NULL;
}

static int be2_sgl_post(struct be2_hba *hba)
{
	unsigned int per = BE2_PAGE / BE2_ICD_BYTES, first, i, n;
	struct be2_sgl_post_req c;
	int rc;

	if (hba->icd_base % per)
		return -EINVAL;
	hba->sgl_pages = hba->icd_count / per;
	hba->sgl = kcalloc(hba->sgl_pages, sizeof(*hba->sgl), GFP_KERNEL);
	if (!hba->sgl)
		return -ENOMEM;
	for (i = 0; i < hba->sgl_pages; i++) {
		hba->sgl[i].va = dma_alloc_coherent(&hba->pdev->dev, BE2_PAGE,
						    &hba->sgl[i].pa,
						    GFP_KERNEL);
		if (!hba->sgl[i].va)
			return -ENOMEM;
	}
	first = hba->icd_base / per;
	for (i = 0; i < hba->sgl_pages; i += n) {
		unsigned int k;

		n = min_t(unsigned int, hba->sgl_pages - i, ARRAY_SIZE(c.pa));
		memset(&c, 0, sizeof(c));
		c.pages = cpu_to_le16(n);
		c.first = cpu_to_le16(first + i);
		for (k = 0; k < n; k++) {
			c.pa[k].lo = cpu_to_le32(lower_32_bits(hba->sgl[i + k].pa));
			c.pa[k].hi = cpu_to_le32(upper_32_bits(hba->sgl[i + k].pa));
		}
		rc = be2_cmd(hba, BE2_SUB_ISCSI, BE2_OP_SGL_POST, &c, sizeof(c));
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Everything but the per-connection WRB rings, in the order the firmware
 * wants them: EQs, CQs, the MCC ring, the default PDU rings, SGL pages.
 */
int be2_rings_create(struct be2_hba *hba)
{
	const char *what;
	int rc;

	what = "event queues";
	rc = be2_eq_create(hba, &hba->eq[0].ring);
	if (!rc)
		rc = be2_eq_create(hba, &hba->eq[1].ring);
	if (rc)
		goto fail;
	what = "completion queues";
	rc = be2_cq_create(hba, &hba->cq[0], BE2_IO_CQ_ENTRIES,
			   &hba->eq[0].ring);
	if (!rc)
		rc = be2_cq_create(hba, &hba->cq[1], BE2_MCC_CQ_ENTRIES,
				   &hba->eq[1].ring);
	if (rc)
		goto fail;
	what = "the MCC ring";
	rc = be2_mcc_create(hba);
	if (rc)
		goto fail;
	what = "the default PDU rings";
	rc = be2_defq_create(hba, &hba->defq_hdr, BE2_DEFQ_HDR_BYTES);
	if (!rc)
		rc = be2_defq_create(hba, &hba->defq_data, BE2_DEFQ_DATA_BYTES);
	if (rc)
		goto fail;
	what = "the SGL pages";
	rc = be2_sgl_post(hba);
	if (rc)
		goto fail;
	return 0;
fail:
	dev_err(&hba->pdev->dev, "creating %s failed (%d)\n", what, rc);
	return rc < 0 ? rc : -EIO;
}

void be2_rings_destroy(struct be2_hba *hba)
{
	struct be2_cleanup_req cl = {
		.hdr_ring = hba->defq_hdr.ring.id,
		.data_ring = hba->defq_data.ring.id,
	};
	struct be2_destroy_req d = {};

	if (!hba->dead && hba->defq_hdr.ring.live && hba->defq_data.ring.live)
		be2_cmd(hba, BE2_SUB_ISCSI, BE2_OP_ISCSI_CLEANUP, &cl,
			sizeof(cl));
	be2_destroy(hba, BE2_SUB_ISCSI, BE2_OP_DEFQ_DESTROY, &hba->defq_data.ring);
	be2_destroy(hba, BE2_SUB_ISCSI, BE2_OP_DEFQ_DESTROY, &hba->defq_hdr.ring);
	if (hba->sgl && !hba->dead)
		be2_cmd(hba, BE2_SUB_ISCSI, BE2_OP_SGL_REMOVE, &d, sizeof(d));
	/* the MCC ring goes by the mailbox, the way it came */
	if (hba->mccq.live) {
		be2_mcc_fail_all(hba);
		d.id = cpu_to_le16(hba->mccq.id);
		if (!hba->dead)
			be2_cmd(hba, BE2_SUB_COMMON, BE2_OP_MCC_DESTROY, &d,
				sizeof(d));
	}
	be2_destroy(hba, BE2_SUB_COMMON, BE2_OP_CQ_DESTROY, &hba->cq[1]);
	be2_destroy(hba, BE2_SUB_COMMON, BE2_OP_CQ_DESTROY, &hba->cq[0]);
	be2_destroy(hba, BE2_SUB_COMMON, BE2_OP_EQ_DESTROY, &hba->eq[1].ring);
	be2_destroy(hba, BE2_SUB_COMMON, BE2_OP_EQ_DESTROY, &hba->eq[0].ring);
}

/* Memory of the rings, once the card can no longer reach it. */
void be2_rings_free(struct be2_hba *hba)
{
	be2_sgl_free(hba);
	be2_defq_free(hba, &hba->defq_data);
	be2_defq_free(hba, &hba->defq_hdr);
	be2_ring_free(hba, &hba->mccq);
	be2_ring_free(hba, &hba->cq[1]);
	be2_ring_free(hba, &hba->cq[0]);
	be2_ring_free(hba, &hba->eq[1].ring);
	be2_ring_free(hba, &hba->eq[0].ring);
}

/* A WRB ring for a new connection; the card names its CID. */
int be2_wrbq_create(struct be2_hba *hba, struct be2_ep *ep)
{
	struct be2_wrbq_create_req c = {};
	struct be2_ring *r = &ep->wrbq;
	u16 cid;
	int rc;

	rc = be2_ring_alloc(hba, r, BE2_WRBS, sizeof(struct be2_wrb));
	if (rc)
		return rc;
	c.pages = cpu_to_le16(be2_ring_pages(r, c.pa, ARRAY_SIZE(c.pa)));
	rc = be2_cmd(hba, BE2_SUB_ISCSI, BE2_OP_WRBQ_CREATE, &c, sizeof(c));
	if (rc) {
		be2_ring_free(hba, r);
		return rc < 0 ? rc : -EIO;
	}
	cid = le16_to_cpu(c.pages);
	if (cid < hba->cid_base || cid - hba->cid_base >= hba->cid_count) {
		dev_err(&hba->pdev->dev, "the card gave CID %u, outside %u+%u\n",
			cid, hba->cid_base, hba->cid_count);
		r->id = cid;
		r->live = true;
		be2_wrbq_destroy(hba, ep);
		return -EIO;
	}
	r->id = cid;
	r->live = true;
	ep->cid = cid;
	return 0;
}

void be2_wrbq_destroy(struct be2_hba *hba, struct be2_ep *ep)
{
	be2_destroy(hba, BE2_SUB_ISCSI, BE2_OP_WRBQ_DESTROY, &ep->wrbq);
	be2_ring_free(hba, &ep->wrbq);
}
