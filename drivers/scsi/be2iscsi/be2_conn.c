// SPDX-License-Identifier: GPL-2.0
/*
 * BladeEngine 2 iSCSI: the iSCSI transport.  Endpoints are the card's
 * offloaded TCP connections; sessions and connections are libiscsi's,
 * with the driver's state in their private space; the iSCSI interface of
 * the card (its IPv4 address) is set and read through the transport's
 * iface.
 */
#include <linux/inet.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <net/netlink.h>
#include <asm/unaligned.h>
#include <scsi/iscsi_if.h>
#include <scsi/scsi_host.h>

#include "be2iscsi.h"

#define BE2_IP_V4		1
#define BE2_IP_V6		0x10
#define BE2_VLAN_OFF		0xffff

#define BE2_UPLOAD_GRACEFUL	1
#define BE2_UPLOAD_ABORT	3
#define BE2_INVALIDATE		0x8001

/* ---- the card's commands of this file ------------------------------------ */

struct be2_ip {
	__le16 size;
	u8 type;
	u8 prefix;
	u8 addr[16];
	u8 mask[16];
	__le32 rsvd;
} __packed;

struct be2_if_info_req {
	struct be2_cmd_hdr hdr;
	__le32 handle;
	__le32 type;		/* response: vlan */
	__le32 count;
	__le32 dhcp;
	struct be2_ip ip;
} __packed;

struct be2_modify_ip_req {
	struct be2_cmd_hdr hdr;
	__le32 records;
	__le32 action;
#define BE2_IP_ADD		1
#define BE2_IP_DEL		2
	__le32 handle;
	struct be2_ip ip;
	__le32 status;
} __packed;

struct be2_gateway_req {
	struct be2_cmd_hdr hdr;
	__le32 action;		/* get: the address type */
	__le16 size;
	u8 rsvd;
	u8 type;
	u8 addr[16];
} __packed;

struct be2_dhcp_req {
	struct be2_cmd_hdr hdr;
	__le32 handle;
	__le32 type;
	__le32 flags;
	__le32 retries;
} __packed;

struct be2_vlan_req {
	struct be2_cmd_hdr hdr;
	__le32 handle;
	__le32 tag;
} __packed;

struct be2_connect_req {
	struct be2_cmd_hdr hdr;
	__le16 ip_size;
	u8 rsvd;
	u8 ip_type;
	u8 addr[16];
	__le32 rsvd0;
	__le16 port;
	__le16 cid;
	__le16 cq;
	__le16 defq;
	__le32 template_lo;
	__le32 template_hi;
	__le16 hdr_ring;
	__le16 data_ring;
	u8 offload;
	u8 rsvd1[3];
} __packed;

struct be2_connect_resp {
	struct be2_cmd_hdr hdr;
	__le32 handle;
	__le16 cid;
	__le16 rsvd;
} __packed;

struct be2_invalidate_req {
	struct be2_cmd_hdr hdr;
	__le32 session;
	__le16 cid;
	__le16 rsvd;
	__le16 type;
	__le16 save;
} __packed;

struct be2_upload_req {
	struct be2_cmd_hdr hdr;
	__le16 cid;
	__le16 type;
	__le32 reset_seq;
} __packed;

static int be2_errno(int rc)
{
	return rc > 0 ? -EIO : rc;
}

static int be2_if_info(struct be2_hba *hba, struct be2_if_info_req *r)
{
	memset(r, 0, sizeof(*r));
	r->handle = cpu_to_le32(hba->if_handle);
	r->type = cpu_to_le32(BE2_IP_V4);
	return be2_errno(be2_cmd(hba, BE2_SUB_ISCSI, BE2_OP_IF_INFO, r,
				 sizeof(*r)));
}

static int be2_gateway(struct be2_hba *hba, u8 *gw)
{
	struct be2_gateway_req r = { .action = cpu_to_le32(BE2_IP_V4) };
	int rc;

	rc = be2_cmd(hba, BE2_SUB_ISCSI, BE2_OP_GET_GATEWAY, &r, sizeof(r));
	if (!rc)
		memcpy(gw, r.addr, 4);
	return be2_errno(rc);
}

/* ---- connections by CID -------------------------------------------------- */

/* The connection bound on a CID, for the completion path (RCU held). */
struct be2_conn *be2_conn_get(struct be2_hba *hba, u32 cid)
{
	if (cid < hba->cid_base || cid - hba->cid_base >= hba->cid_count)
		return NULL;
	return rcu_dereference(hba->conn[cid - hba->cid_base]);
}

static void be2_conn_publish(struct be2_hba *hba, u16 cid, struct be2_conn *bc)
{
	spin_lock_bh(&hba->conn_lock);
	rcu_assign_pointer(hba->conn[cid - hba->cid_base], bc);
	spin_unlock_bh(&hba->conn_lock);
	if (!bc)
		synchronize_rcu();	/* no completion path sees it now */
}

/* ---- endpoints ----------------------------------------------------------- */

static struct iscsi_endpoint *be2_ep_connect(struct Scsi_Host *shost,
					     struct sockaddr *dst,
					     int non_blocking)
{
	struct be2_connect_req c = {};
	struct be2_connect_resp *resp = (void *)&c;
	struct iscsi_endpoint *ep;
	struct be2_hba *hba;
	struct be2_ep *be;
	int rc;

	BUILD_BUG_ON(sizeof(*resp) > sizeof(c));
	if (!shost)
		return ERR_PTR(-ENXIO);	/* offload needs the card's iface */
	hba = iscsi_host_priv(shost);
	if (hba->dead)
		return ERR_PTR(-EIO);
	if (dst->sa_family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)dst;

		c.ip_type = BE2_IP_V4;
		memcpy(c.addr, &in->sin_addr, 4);
		c.port = cpu_to_le16(ntohs(in->sin_port));
	} else if (dst->sa_family == AF_INET6) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)dst;

		c.ip_type = BE2_IP_V6;
		memcpy(c.addr, &in6->sin6_addr, 16);
		c.port = cpu_to_le16(ntohs(in6->sin6_port));
	} else {
		return ERR_PTR(-EAFNOSUPPORT);
	}

	ep = iscsi_create_endpoint(sizeof(*be));
	if (!ep)
		return ERR_PTR(-ENOMEM);
	be = ep->dd_data;
	be->hba = hba;
	memcpy(&be->dst, dst, dst->sa_family == AF_INET ?
	       sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));
	rc = be2_wrbq_create(hba, be);
	if (rc) {
		shost_printk(KERN_ERR, shost,
			     "no connection is free on the card (%d)\n", rc);
		goto destroy;
	}
	c.ip_size = cpu_to_le16(24);
	c.cid = cpu_to_le16(be->cid);
	c.cq = cpu_to_le16(hba->cq[0].id);
	c.defq = cpu_to_le16(hba->defq_hdr.ring.id);
	c.hdr_ring = cpu_to_le16(hba->defq_hdr.ring.id);
	c.data_ring = cpu_to_le16(hba->defq_data.ring.id);
	c.offload = 1;
	rc = be2_cmd(hba, BE2_SUB_ISCSI, BE2_OP_CONNECT_OFFLOAD, &c, sizeof(c));
	if (rc) {
		shost_printk(KERN_ERR, shost,
			     "the card could not connect to %pISpc (status %d)\n",
			     dst, rc);
		rc = be2_errno(rc);
		goto wrbq;
	}
	be->handle = le32_to_cpu(resp->handle);
	be->offloaded = true;
	return ep;
wrbq:
	be2_wrbq_destroy(hba, be);
destroy:
	iscsi_destroy_endpoint(ep);
	return ERR_PTR(rc);
}

static int be2_ep_poll(struct iscsi_endpoint *ep, int timeout_ms)
{
	struct be2_ep *be = ep->dd_data;

	/* the connect command returned once TCP was up */
	return be->offloaded ? 1 : -EIO;
}

/* Nothing more moves on the card's connection (it stays allocated). */
static void be2_ep_invalidate(struct be2_ep *be)
{
	struct be2_invalidate_req r = {
		.session = cpu_to_le32(be->handle),
		.cid = cpu_to_le16(be->cid),
		.type = cpu_to_le16(BE2_INVALIDATE),
	};
	int rc;

	if (!be->offloaded)
		return;
	rc = be2_cmd(be->hba, BE2_SUB_ISCSI_INI, BE2_OP_INVALIDATE_CONN, &r,
		     sizeof(r));
	if (rc && !be->hba->dead)
		dev_warn(&be->hba->pdev->dev,
			 "CID %u: the card did not invalidate the connection (%d)\n",
			 be->cid, rc);
}

static void be2_ep_disconnect(struct iscsi_endpoint *ep)
{
	struct be2_ep *be = ep->dd_data;
	struct be2_hba *hba = be->hba;
	struct be2_conn *bc = be->conn;
	struct be2_upload_req u = { .cid = cpu_to_le16(be->cid) };
	bool clean = false;
	int rc;

	if (bc) {
		struct iscsi_session *s = bc->conn->session;

		clean = s->state == ISCSI_STATE_LOGGING_OUT ||
			s->state == ISCSI_STATE_TERMINATE;
		spin_lock_bh(&s->frwd_lock);
		bc->ep = NULL;
		bc->last_wrb = NULL;
		spin_unlock_bh(&s->frwd_lock);
		be2_conn_publish(hba, be->cid, NULL);
		be->conn = NULL;
	}
	if (be->offloaded) {
		be2_ep_invalidate(be);
		u.type = cpu_to_le16(clean ? BE2_UPLOAD_GRACEFUL :
				     BE2_UPLOAD_ABORT);
		rc = be2_cmd(hba, BE2_SUB_COMMON, BE2_OP_TCP_UPLOAD, &u,
			     sizeof(u));
		if (rc && !hba->dead)
			dev_warn(&hba->pdev->dev,
				 "CID %u: upload of the connection failed (%d)\n",
				 be->cid, rc);
		be->offloaded = false;
	}
	be2_wrbq_destroy(hba, be);
	iscsi_destroy_endpoint(ep);
}

static int be2_get_ep_param(struct iscsi_endpoint *ep, enum iscsi_param param,
			    char *buf)
{
	struct be2_ep *be = ep->dd_data;

	switch (param) {
	case ISCSI_PARAM_CONN_PORT:
	case ISCSI_PARAM_CONN_ADDRESS:
		return iscsi_conn_get_addr_param(&be->dst, param, buf);
	default:
		return -EINVAL;
	}
}

/* ---- sessions and connections -------------------------------------------- */

static void be2_session_free_bhs(struct be2_hba *hba, struct iscsi_session *s)
{
	int i;

	for (i = 0; i < s->cmds_max; i++) {
		struct be2_task *bt = s->cmds[i]->dd_data;

		if (bt->bhs)
			dma_pool_free(hba->bhs_pool, bt->bhs, bt->bhs_pa);
		bt->bhs = NULL;
	}
}

static struct iscsi_cls_session *
be2_create_session(struct iscsi_endpoint *ep, u16 cmds_max, u16 qdepth,
		   u32 initial_cmdsn)
{
	struct iscsi_cls_session *cls;
	struct iscsi_session *s;
	struct be2_session *bs;
	struct be2_hba *hba;
	unsigned int block;
	int i;

	if (!ep) {
		pr_err(BE2_NAME ": a session needs the card's endpoint\n");
		return NULL;
	}
	hba = ((struct be2_ep *)ep->dd_data)->hba;
	spin_lock_bh(&hba->icd_lock);
	block = find_first_zero_bit(hba->icd_map,
				    hba->icd_count / BE2_CMDS_MAX);
	if (block < hba->icd_count / BE2_CMDS_MAX)
		set_bit(block, hba->icd_map);
	spin_unlock_bh(&hba->icd_lock);
	if (block >= hba->icd_count / BE2_CMDS_MAX) {
		shost_printk(KERN_ERR, hba->shost,
			     "all %u sessions of the card are in use\n",
			     hba->icd_count / BE2_CMDS_MAX);
		return NULL;
	}
	/* the card's ICDs and WRB indices fix the number of tasks */
	cls = iscsi_session_setup(&be2_transport, hba->shost, BE2_CMDS_MAX,
				  sizeof(*bs), sizeof(struct be2_task),
				  initial_cmdsn, ISCSI_MAX_TARGET);
	if (!cls)
		goto free_block;
	s = cls->dd_data;
	/* the dd_size space of the session: the driver's part */
	bs = s->dd_data;
	*bs = (struct be2_session){ .hba = hba, .icd_block = block };
	for (i = 0; i < s->cmds_max; i++) {
		struct be2_task *bt = s->cmds[i]->dd_data;

		bt->bhs = dma_pool_zalloc(hba->bhs_pool, GFP_KERNEL,
					  &bt->bhs_pa);
		if (!bt->bhs)
			goto teardown;
	}
	return cls;
teardown:
	be2_session_free_bhs(hba, s);
	iscsi_session_teardown(cls);
free_block:
	clear_bit(block, hba->icd_map);
	return NULL;
}

static void be2_destroy_session(struct iscsi_cls_session *cls)
{
	struct iscsi_session *s = cls->dd_data;
	struct be2_session *bs = s->dd_data;
	struct be2_hba *hba = bs->hba;
	unsigned int block = bs->icd_block;

	be2_session_free_bhs(hba, s);
	iscsi_session_teardown(cls);
	clear_bit(block, hba->icd_map);
}

static struct iscsi_cls_conn *be2_create_conn(struct iscsi_cls_session *cls,
					      u32 cid)
{
	struct iscsi_session *s = cls->dd_data;
	struct be2_session *bs = s->dd_data;
	struct iscsi_cls_conn *cls_conn;
	struct be2_conn *bc;

	cls_conn = iscsi_conn_setup(cls, sizeof(*bc), cid);
	if (!cls_conn)
		return NULL;
	bc = ((struct iscsi_conn *)cls_conn->dd_data)->dd_data;
	bc->conn = cls_conn->dd_data;
	bc->hba = bs->hba;
	bc->rx_data = kmalloc(BE2_RX_PDU_MAX, GFP_KERNEL);
	if (!bc->rx_data) {
		iscsi_conn_teardown(cls_conn);
		return NULL;
	}
	return cls_conn;
}

static void be2_destroy_conn(struct iscsi_cls_conn *cls_conn)
{
	struct be2_conn *bc = ((struct iscsi_conn *)cls_conn->dd_data)->dd_data;

	kfree(bc->rx_data);
	bc->rx_data = NULL;
	iscsi_conn_teardown(cls_conn);
}

static int be2_bind_conn(struct iscsi_cls_session *cls,
			 struct iscsi_cls_conn *cls_conn, u64 transport_eph,
			 int is_leading)
{
	struct iscsi_endpoint *ep = iscsi_lookup_endpoint(transport_eph);
	struct iscsi_conn *conn = cls_conn->dd_data;
	struct be2_conn *bc = conn->dd_data;
	struct be2_ep *be;
	int rc;

	if (!ep)
		return -EINVAL;
	be = ep->dd_data;
	rc = -EINVAL;
	if (be->hba != bc->hba || !be->offloaded) {
		iscsi_conn_printk(KERN_ERR, conn,
				  "the endpoint is not a live connection of this card\n");
		goto put;
	}
	rc = -EEXIST;
	if (be->conn)
		goto put;
	rc = iscsi_conn_bind(cls, cls_conn, is_leading);
	if (rc)
		goto put;
	spin_lock_bh(&conn->session->frwd_lock);
	be->conn = bc;
	bc->ep = be;
	bc->last_wrb = NULL;
	bc->rx_open = false;
	spin_unlock_bh(&conn->session->frwd_lock);
	be2_conn_publish(bc->hba, be->cid, bc);
put:
	iscsi_put_endpoint(ep);
	return rc;
}

static int be2_start_conn(struct iscsi_cls_conn *cls_conn)
{
	struct be2_conn *bc = ((struct iscsi_conn *)cls_conn->dd_data)->dd_data;
	int rc;

	rc = be2_ctx_update(bc);
	if (rc)
		return rc;
	return iscsi_conn_start(cls_conn);
}

static void be2_stop_conn(struct iscsi_cls_conn *cls_conn, int flag)
{
	struct iscsi_conn *conn = cls_conn->dd_data;
	struct be2_conn *bc = conn->dd_data;
	struct be2_ep *be;

	/* the card lets go of the tasks before libiscsi fails them */
	spin_lock_bh(&conn->session->frwd_lock);
	be = bc->ep;
	spin_unlock_bh(&conn->session->frwd_lock);
	if (be)
		be2_ep_invalidate(be);
	iscsi_conn_stop(cls_conn, flag);
}

/* What the card can do: the limits of its offload engine. */
static int be2_set_param(struct iscsi_cls_conn *cls_conn,
			 enum iscsi_param param, char *buf, int buflen)
{
	struct iscsi_conn *conn = cls_conn->dd_data;
	struct iscsi_session *s = conn->session;
	int rc;

	rc = iscsi_set_param(cls_conn, param, buf, buflen);
	if (rc)
		return rc;
	switch (param) {
	case ISCSI_PARAM_FIRST_BURST:
		s->first_burst = min(s->first_burst, 8192u);
		break;
	case ISCSI_PARAM_MAX_BURST:
		s->max_burst = min(s->max_burst, 262144u);
		break;
	case ISCSI_PARAM_MAX_RECV_DLENGTH:
		conn->max_recv_dlength = min(conn->max_recv_dlength, 65536u);
		break;
	case ISCSI_PARAM_MAX_XMIT_DLENGTH:
		conn->max_xmit_dlength = min(conn->max_xmit_dlength, 65536u);
		break;
	default:
		break;
	}
	return 0;
}

static int be2_get_conn_param(struct iscsi_cls_conn *cls_conn,
			      enum iscsi_param param, char *buf)
{
	struct iscsi_conn *conn = cls_conn->dd_data;
	struct be2_conn *bc = conn->dd_data;
	struct sockaddr_storage dst;
	bool have = false;

	switch (param) {
	case ISCSI_PARAM_CONN_PORT:
	case ISCSI_PARAM_CONN_ADDRESS:
		spin_lock_bh(&conn->session->frwd_lock);
		if (bc->ep) {
			dst = bc->ep->dst;
			have = true;
		}
		spin_unlock_bh(&conn->session->frwd_lock);
		return have ? iscsi_conn_get_addr_param(&dst, param, buf) :
			      -ENOTCONN;
	default:
		return iscsi_conn_get_param(cls_conn, param, buf);
	}
}

static void be2_get_stats(struct iscsi_cls_conn *cls_conn,
			  struct iscsi_stats *st)
{
	struct iscsi_conn *conn = cls_conn->dd_data;

	/* digest and timeout errors are counted by the card, not here */
	memset(st, 0, sizeof(*st));
	st->scsicmd_pdus = conn->scsicmd_pdus_cnt;
	st->dataout_pdus = conn->dataout_pdus_cnt;
	st->r2t_pdus = conn->r2t_pdus_cnt;
	st->datain_pdus = conn->datain_pdus_cnt;
	st->scsirsp_pdus = conn->scsirsp_pdus_cnt;
	st->tmfcmd_pdus = conn->tmfcmd_pdus_cnt;
	st->tmfrsp_pdus = conn->tmfrsp_pdus_cnt;
	st->txdata_octets = conn->txdata_octets;
	st->rxdata_octets = conn->rxdata_octets;
}

/* ---- the host and its iface ---------------------------------------------- */

static int be2_get_host_param(struct Scsi_Host *shost,
			      enum iscsi_host_param param, char *buf)
{
	struct be2_hba *hba = iscsi_host_priv(shost);
	struct be2_if_info_req r;
	int rc;

	switch (param) {
	case ISCSI_HOST_PARAM_HWADDRESS:
		return sysfs_emit(buf, "%pM\n", hba->mac);
	case ISCSI_HOST_PARAM_INITIATOR_NAME:
		return sysfs_emit(buf, "%s\n", hba->iname);
	case ISCSI_HOST_PARAM_IPADDRESS:
		rc = be2_if_info(hba, &r);
		if (rc)
			return rc;
		return sysfs_emit(buf, "%pI4\n", r.ip.addr);
	case ISCSI_HOST_PARAM_PORT_STATE:
		return sysfs_emit(buf, "%s\n", iscsi_get_port_state_name(shost));
	case ISCSI_HOST_PARAM_PORT_SPEED:
		return sysfs_emit(buf, "%s\n", iscsi_get_port_speed_name(shost));
	default:
		return iscsi_host_get_param(shost, param, buf);
	}
}

static int be2_get_iface_param(struct iscsi_iface *iface,
			       enum iscsi_param_type type, int param,
			       char *buf)
{
	struct Scsi_Host *shost = iscsi_iface_to_shost(iface);
	struct be2_hba *hba = iscsi_host_priv(shost);
	struct be2_if_info_req r;
	u8 gw[4];
	u32 vlan;
	int rc;

	if (type != ISCSI_NET_PARAM)
		return -EINVAL;
	if (param == ISCSI_NET_PARAM_IPV4_GW) {
		rc = be2_gateway(hba, gw);
		return rc ? rc : sysfs_emit(buf, "%pI4\n", gw);
	}
	rc = be2_if_info(hba, &r);
	if (rc)
		return rc;
	vlan = le32_to_cpu(r.type);
	switch (param) {
	case ISCSI_NET_PARAM_IPV4_ADDR:
		return sysfs_emit(buf, "%pI4\n", r.ip.addr);
	case ISCSI_NET_PARAM_IPV4_SUBNET:
		return sysfs_emit(buf, "%pI4\n", r.ip.mask);
	case ISCSI_NET_PARAM_IPV4_BOOTPROTO:
		return sysfs_emit(buf, "%s\n", le32_to_cpu(r.dhcp) ? "dhcp" :
				  "static");
	case ISCSI_NET_PARAM_IFACE_ENABLE:
		return sysfs_emit(buf, "enabled\n");
	case ISCSI_NET_PARAM_VLAN_ENABLED:
		return sysfs_emit(buf, "%s\n", vlan == BE2_VLAN_OFF ? "disable" :
				  "enable");
	case ISCSI_NET_PARAM_VLAN_ID:
		if (vlan == BE2_VLAN_OFF)
			return -EINVAL;
		return sysfs_emit(buf, "%u\n", vlan & 0xfff);
	default:
		return -EINVAL;
	}
}

/* what an iface apply asks of the card, checked before any of it is done */
struct be2_iface_req {
	const u8 *addr, *mask, *gw;
	int bootproto;		/* ISCSI_BOOTPROTO_*, 0 if not given */
	int vlan_on;		/* 1, 0, or -1 if not given */
	int vlan_id;		/* -1 if not given */
};

static bool be2_ip4_ok(const u8 *a)
{
	return a[0] && a[0] != 127 && a[0] < 224;
}

static bool be2_mask4_ok(const u8 *m)
{
	u32 v = get_unaligned_be32(m);

	return v && !(~v & (~v + 1));
}

static int be2_iface_parse(struct be2_hba *hba, void *data, u32 len,
			   struct be2_iface_req *q)
{
	struct nlattr *attr;
	int rem;

	nla_for_each_attr(attr, data, len, rem) {
		struct iscsi_iface_param_info *p = nla_data(attr);

		if (nla_len(attr) < sizeof(*p) ||
		    nla_len(attr) < sizeof(*p) + p->len)
			return -EINVAL;
		if (p->param_type != ISCSI_NET_PARAM)
			continue;
		if (p->iface_type != ISCSI_IFACE_TYPE_IPV4 || p->iface_num) {
			shost_printk(KERN_INFO, hba->shost,
				     "only the IPv4 iface 0 is configurable; param %u of iface %u type %u ignored\n",
				     p->param, p->iface_num, p->iface_type);
			continue;
		}
		switch (p->param) {
		case ISCSI_NET_PARAM_IPV4_ADDR:
			if (p->len < 4 || !be2_ip4_ok(p->value))
				goto bad;
			q->addr = p->value;
			break;
		case ISCSI_NET_PARAM_IPV4_SUBNET:
			if (p->len < 4 || !be2_mask4_ok(p->value))
				goto bad;
			q->mask = p->value;
			break;
		case ISCSI_NET_PARAM_IPV4_GW:
			if (p->len < 4 || (get_unaligned_be32(p->value) &&
					   !be2_ip4_ok(p->value)))
				goto bad;
			q->gw = p->value;
			break;
		case ISCSI_NET_PARAM_IPV4_BOOTPROTO:
			if (p->len < 1 ||
			    (p->value[0] != ISCSI_BOOTPROTO_STATIC &&
			     p->value[0] != ISCSI_BOOTPROTO_DHCP))
				goto bad;
			q->bootproto = p->value[0];
			break;
		case ISCSI_NET_PARAM_VLAN_ENABLED:
			if (p->len < 1)
				goto bad;
			q->vlan_on = p->value[0] == ISCSI_VLAN_ENABLE;
			break;
		case ISCSI_NET_PARAM_VLAN_ID:
			if (p->len < 2 || !get_unaligned((u16 *)p->value) ||
			    get_unaligned((u16 *)p->value) >= 0xfff)
				goto bad;
			q->vlan_id = get_unaligned((u16 *)p->value);
			break;
		default:
			/* enable, MTU, ports...: the card has no such knob */
			break;
		}
		continue;
bad:
		shost_printk(KERN_ERR, hba->shost,
			     "iface: invalid value for parameter %u; nothing changed\n",
			     p->param);
		return -EINVAL;
	}
	return 0;
}

static int be2_set_ip(struct be2_hba *hba, const u8 *addr, const u8 *mask)
{
	struct be2_if_info_req cur;
	struct be2_modify_ip_req r;
	int rc;

	rc = be2_if_info(hba, &cur);
	if (rc)
		return rc;
	if (!addr)
		addr = cur.ip.addr;
	if (!mask)
		mask = cur.ip.mask;
	if (!be2_ip4_ok(addr))
		return -EINVAL;	/* a mask alone, with no address yet */
	if (get_unaligned_be32(cur.ip.addr)) {
		memset(&r, 0, sizeof(r));
		r.records = cpu_to_le32(1);
		r.action = cpu_to_le32(BE2_IP_DEL);
		r.handle = cpu_to_le32(hba->if_handle);
		r.ip = cur.ip;
		r.ip.size = cpu_to_le16(sizeof(r.ip));
		r.ip.type = BE2_IP_V4;
		rc = be2_cmd(hba, BE2_SUB_ISCSI, BE2_OP_MODIFY_IP, &r, sizeof(r));
		if (rc)
			return be2_errno(rc);
	}
	memset(&r, 0, sizeof(r));
	r.records = cpu_to_le32(1);
	r.action = cpu_to_le32(BE2_IP_ADD);
	r.handle = cpu_to_le32(hba->if_handle);
	r.ip.size = cpu_to_le16(sizeof(r.ip));
	r.ip.type = BE2_IP_V4;
	memcpy(r.ip.addr, addr, 4);
	memcpy(r.ip.mask, mask, 4);
	rc = be2_cmd(hba, BE2_SUB_ISCSI, BE2_OP_MODIFY_IP, &r, sizeof(r));
	return be2_errno(rc);
}

static int be2_set_gw(struct be2_hba *hba, const u8 *gw)
{
	struct be2_gateway_req r = {};
	u8 cur[4];
	int rc;

	rc = be2_gateway(hba, cur);
	if (rc)
		return rc;
	r.size = cpu_to_le16(24);
	r.type = BE2_IP_V4;
	if (get_unaligned_be32(cur)) {
		r.action = cpu_to_le32(BE2_IP_DEL);
		memcpy(r.addr, cur, 4);
		rc = be2_cmd(hba, BE2_SUB_ISCSI, BE2_OP_MODIFY_GATEWAY, &r,
			     sizeof(r));
		if (rc)
			return be2_errno(rc);
	}
	if (!get_unaligned_be32(gw))
		return 0;
	r.action = cpu_to_le32(BE2_IP_ADD);
	memcpy(r.addr, gw, 4);
	return be2_errno(be2_cmd(hba, BE2_SUB_ISCSI, BE2_OP_MODIFY_GATEWAY, &r,
				 sizeof(r)));
}

static int be2_set_iface_param(struct Scsi_Host *shost, void *data, u32 len)
{
	struct be2_hba *hba = iscsi_host_priv(shost);
	struct be2_iface_req q = { .vlan_on = -1, .vlan_id = -1 };
	struct be2_if_info_req cur;
	int rc;

	rc = be2_iface_parse(hba, data, len, &q);
	if (rc)
		return rc;
	rc = be2_if_info(hba, &cur);
	if (rc)
		return rc;
	if (q.bootproto) {
		bool dhcp = q.bootproto == ISCSI_BOOTPROTO_DHCP;

		if (dhcp != !!le32_to_cpu(cur.dhcp)) {
			struct be2_dhcp_req d = {
				.handle = cpu_to_le32(hba->if_handle),
				.type = cpu_to_le32(BE2_IP_V4),
			};

			rc = be2_cmd(hba, BE2_SUB_ISCSI, dhcp ? BE2_OP_DHCP_ON :
				     BE2_OP_DHCP_OFF, &d, dhcp ? sizeof(d) : 24);
			if (rc)
				goto fail;
		}
		if (dhcp) {
			/* the lease's */
			q.addr = NULL;
			q.mask = NULL;
			q.gw = NULL;
		}
	}
	if (q.addr || q.mask) {
		rc = be2_set_ip(hba, q.addr, q.mask);
		if (rc)
			goto fail;
	}
	if (q.gw) {
		rc = be2_set_gw(hba, q.gw);
		if (rc)
			goto fail;
	}
	if (q.vlan_on >= 0 || q.vlan_id >= 0) {
		struct be2_vlan_req v = { .handle = cpu_to_le32(hba->if_handle) };
		u32 cur_vlan = le32_to_cpu(cur.type);
		bool on = q.vlan_on >= 0 ? q.vlan_on : cur_vlan != BE2_VLAN_OFF;
		int id = q.vlan_id >= 0 ? q.vlan_id :
			 cur_vlan != BE2_VLAN_OFF ? cur_vlan & 0xfff : -1;

		if (on && id < 0) {
			shost_printk(KERN_ERR, shost,
				     "iface: a VLAN needs its ID\n");
			return -EINVAL;
		}
		v.tag = cpu_to_le32(on ? id : BE2_VLAN_OFF);
		rc = be2_cmd(hba, BE2_SUB_ISCSI, BE2_OP_SET_VLAN, &v, sizeof(v));
		if (rc)
			goto fail;
	}
	return 0;
fail:
	shost_printk(KERN_ERR, shost, "iface: the card refused the change (%d)\n",
		     rc);
	return be2_errno(rc);
}

/* what the transport shows: net, host, and session/connection parameters */
static const u8 be2_net_shown[] = {
	ISCSI_NET_PARAM_IPV4_ADDR, ISCSI_NET_PARAM_IPV4_SUBNET,
	ISCSI_NET_PARAM_IPV4_GW, ISCSI_NET_PARAM_IPV4_BOOTPROTO,
	ISCSI_NET_PARAM_IFACE_ENABLE, ISCSI_NET_PARAM_VLAN_ID,
	ISCSI_NET_PARAM_VLAN_ENABLED,
};

static const u8 be2_host_shown[] = {
	ISCSI_HOST_PARAM_HWADDRESS, ISCSI_HOST_PARAM_IPADDRESS,
	ISCSI_HOST_PARAM_INITIATOR_NAME, ISCSI_HOST_PARAM_PORT_STATE,
	ISCSI_HOST_PARAM_PORT_SPEED,
};

static const u8 be2_iscsi_shown[] = {
	/* who and where */
	ISCSI_PARAM_TARGET_NAME, ISCSI_PARAM_TPGT, ISCSI_PARAM_INITIATOR_NAME,
	ISCSI_PARAM_IFACE_NAME, ISCSI_PARAM_CONN_ADDRESS, ISCSI_PARAM_CONN_PORT,
	ISCSI_PARAM_PERSISTENT_ADDRESS, ISCSI_PARAM_PERSISTENT_PORT,
	/* what login negotiated */
	ISCSI_PARAM_HDRDGST_EN, ISCSI_PARAM_DATADGST_EN,
	ISCSI_PARAM_MAX_RECV_DLENGTH, ISCSI_PARAM_MAX_XMIT_DLENGTH,
	ISCSI_PARAM_FIRST_BURST, ISCSI_PARAM_MAX_BURST, ISCSI_PARAM_MAX_R2T,
	ISCSI_PARAM_INITIAL_R2T_EN, ISCSI_PARAM_IMM_DATA_EN, ISCSI_PARAM_ERL,
	ISCSI_PARAM_PDU_INORDER_EN, ISCSI_PARAM_DATASEQ_INORDER_EN,
	ISCSI_PARAM_EXP_STATSN,
	/* CHAP */
	ISCSI_PARAM_USERNAME, ISCSI_PARAM_PASSWORD, ISCSI_PARAM_USERNAME_IN,
	ISCSI_PARAM_PASSWORD_IN,
	/* timers and recovery */
	ISCSI_PARAM_PING_TMO, ISCSI_PARAM_RECV_TMO, ISCSI_PARAM_FAST_ABORT,
	ISCSI_PARAM_ABORT_TMO, ISCSI_PARAM_LU_RESET_TMO,
	ISCSI_PARAM_TGT_RESET_TMO,
};

static bool be2_in(const u8 *list, size_t n, int param)
{
	return memchr(list, param, n) && param >= 0 && param <= U8_MAX;
}

static umode_t be2_attr_is_visible(int type, int param)
{
	bool shown = false;

	if (type == ISCSI_NET_PARAM)
		shown = be2_in(be2_net_shown, sizeof(be2_net_shown), param);
	else if (type == ISCSI_HOST_PARAM)
		shown = be2_in(be2_host_shown, sizeof(be2_host_shown), param);
	else if (type == ISCSI_PARAM)
		shown = be2_in(be2_iscsi_shown, sizeof(be2_iscsi_shown), param);
	return shown ? 0444 : 0;
}

int be2_iface_create(struct be2_hba *hba)
{
	hba->iface4 = iscsi_create_iface(hba->shost, &be2_transport,
					 ISCSI_IFACE_TYPE_IPV4, 0, 0);
	return hba->iface4 ? 0 : -ENOMEM;
}

void be2_iface_destroy(struct be2_hba *hba)
{
	if (hba->iface4)
		iscsi_destroy_iface(hba->iface4);
	hba->iface4 = NULL;
}

/* The port's state to the transport's host attributes, once they exist. */
void be2_port_publish(struct be2_hba *hba, bool added)
{
	struct iscsi_cls_host *ch = hba->shost->shost_data;

	if (added)
		hba->host_added = true;
	if (!hba->host_added)
		return;
	ch->port_state = hba->link_up ? ISCSI_PORT_STATE_UP :
			 ISCSI_PORT_STATE_DOWN;
	ch->port_speed = hba->link_up && hba->link_speed == 4 ?
			 ISCSI_PORT_SPEED_10GBPS : ISCSI_PORT_SPEED_UNKNOWN;
}

/* An MCC async event: the port's link went up or down. */
void be2_link_event(struct be2_hba *hba, const struct be2_mcc_cqe *cqe)
{
	const u8 *e = (const u8 *)cqe;
	bool up = e[1] & 1;

	hba->link_speed = e[3];
	if (up == hba->link_up) {
		be2_port_publish(hba, false);
		return;
	}
	hba->link_up = up;
	be2_port_publish(hba, false);
	dev_info(&hba->pdev->dev, "link %s\n", up ? "up" : "down");
	if (!up)
		be2_conns_fail(hba);
}

/* Every connection to libiscsi's recovery (link gone, card dead). */
void be2_conns_fail(struct be2_hba *hba)
{
	unsigned int i;

	rcu_read_lock();
	for (i = 0; i < hba->cid_count; i++) {
		struct be2_conn *bc = rcu_dereference(hba->conn[i]);

		if (bc)
			iscsi_conn_failure(bc->conn, ISCSI_ERR_CONN_FAILED);
	}
	rcu_read_unlock();
}

struct iscsi_transport be2_transport = {
	.owner = THIS_MODULE, .name = BE2_NAME,
	/* the card runs TCP and the data path; digests are its too */
	.caps = CAP_DATA_PATH_OFFLOAD | CAP_TEXT_NEGO | CAP_RECOVERY_L0 |
		CAP_MULTI_R2T | CAP_HDRDGST | CAP_DATADGST,
	.ep_connect = be2_ep_connect, .ep_poll = be2_ep_poll,
	.ep_disconnect = be2_ep_disconnect, .get_ep_param = be2_get_ep_param,
	.create_session = be2_create_session,
	.destroy_session = be2_destroy_session,
	.session_recovery_timedout = iscsi_session_recovery_timedout,
	.get_session_param = iscsi_session_get_param,
	.create_conn = be2_create_conn, .destroy_conn = be2_destroy_conn,
	.bind_conn = be2_bind_conn, .unbind_conn = iscsi_conn_unbind,
	.start_conn = be2_start_conn, .stop_conn = be2_stop_conn,
	.set_param = be2_set_param, .get_conn_param = be2_get_conn_param,
	.get_stats = be2_get_stats,
	/* tasks: libiscsi builds the PDUs, the card carries them */
	.alloc_pdu = be2_alloc_pdu, .xmit_task = be2_xmit_task,
	.cleanup_task = be2_cleanup_task, .parse_pdu_itt = be2_parse_itt,
	.send_pdu = iscsi_conn_send_pdu,
	/* the card itself */
	.get_host_param = be2_get_host_param,
	.set_iface_param = be2_set_iface_param,
	.get_iface_param = be2_get_iface_param,
	.attr_is_visible = be2_attr_is_visible,
};
