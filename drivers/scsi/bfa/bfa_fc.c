// SPDX-License-Identifier: GPL-2.0
/*
 * Brocade Fibre Channel HBA driver: the glue to libfc.
 *
 * Each port is a libfc local port on a Scsi_Host of its own, with the
 * names the firmware reported.  libfc keeps the fc_host attributes and
 * the link state; link changes from the firmware reach it from process
 * context.  Fabric login, the name server, discovery and the logins to
 * the remote ports are libfc's, carried by the firmware (bfa_els.c).
 */
#include <scsi/libfc.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi_transport_fc.h>

#include "bfa.h"

#define BFA_ELS_XID_MIN		0x0000
#define BFA_ELS_XID_MAX		0x0fff

static struct scsi_transport_template *bfa_fc_transport;
static struct scsi_transport_template *bfa_fc_vport_transport;
static struct fc_function_template bfa_fc_vport_functions;

/* A LIP: log in to the fabric again (refused while the link is down). */
static int bfa_fc_issue_lip(struct Scsi_Host *shost)
{
	struct fc_lport *lport = shost_priv(shost);

	if (!lport->link_up)
		return -ENOLINK;
	return fc_lport_reset(lport);
}

/* libfc counts per CPU and has no reset of its own */
static void bfa_fc_reset_stats(struct Scsi_Host *shost)
{
	struct fc_lport *lport = shost_priv(shost);
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(lport->stats, cpu), 0,
		       sizeof(struct fc_stats));
	lport->boot_time = jiffies;
}

/* The firmware runs the I/O: libfc's own FCP layer is not used. */
static void bfa_fc_no_fcp(struct fc_lport *lport)
{
}

static u32 bfa_fc_speed(unsigned int gbit)
{
	switch (gbit) {
	case 1:
		return FC_PORTSPEED_1GBIT;
	case 2:
		return FC_PORTSPEED_2GBIT;
	case 4:
		return FC_PORTSPEED_4GBIT;
	case 8:
		return FC_PORTSPEED_8GBIT;
	default:
		return FC_PORTSPEED_UNKNOWN;
	}
}

static void bfa_fc_link_work(struct work_struct *work)
{
	struct bfa_port *port = container_of(work, struct bfa_port, link_work);
	struct fc_lport *lport = port->lport;

	if (READ_ONCE(port->link_up)) {
		lport->link_speed = bfa_fc_speed(READ_ONCE(port->link_speed));
		fc_linkup(lport);
	} else {
		fc_linkdown(lport);
	}
}

/* From any context: the link changed; libfc hears of it from a worker. */
void bfa_fc_link_changed(struct bfa_port *port)
{
	if (port->lport)
		schedule_work(&port->link_work);
}

/* What libfc holds beyond the host; each part may be missing. */
static void bfa_fc_release(struct fc_lport *lport)
{
	fc_exch_mgr_free(lport);
	fc_lport_free_stats(lport);
	scsi_host_put(lport->host);
}

/*
 * What the physical port's local port and a vport's share: libfc's
 * fields and template, then the host under parent, then fc_host.  The
 * caller has given lport its exchange manager.
 */
static int bfa_fc_setup(struct bfa_lp *lp, u64 wwpn, u64 wwnn,
			struct device *parent,
			struct scsi_transport_template *tt)
{
	struct bfa_port *port = lp->port;
	struct fc_lport *lport = lp->lport;
	struct Scsi_Host *shost = lport->host;
	unsigned int s;
	int err;

	if (!bfa_io_share(lp))
		return -ENOSPC;
	shost->transportt = tt;
	shost->can_queue = lp->n_io;
	shost->max_channel = 0;
	shost->max_id = BFA_TGTS;
	shost->max_lun = 16384;
	shost->max_cmd_len = 16;
	lport->boot_time = jiffies;
	lport->e_d_tov = 2 * MSEC_PER_SEC;
	lport->r_a_tov = 10 * MSEC_PER_SEC;
	lport->max_retry_count = 3;
	lport->max_rport_retry_count = 3;
	lport->service_params = FCP_SPPF_INIT_FCN | FCP_SPPF_RD_XRDY_DIS;
	lport->does_npiv = 1;
	lport->tt.frame_send = bfa_els_frame_send;
	lport->tt.exch_mgr_reset = bfa_els_exch_reset;
	lport->tt.rport_event_callback = bfa_io_rport_event;
	lport->tt.fcp_cleanup = bfa_fc_no_fcp;
	lport->tt.fcp_abort_io = bfa_fc_no_fcp;
	/* an FC port also runs at the two speeds before its own */
	for (s = max(port->speed_gbit / 4, 1u); s <= min(port->speed_gbit, 8u);
	     s *= 2)
		lport->link_supported_speeds |= bfa_fc_speed(s);

	fc_lport_config(lport);
	err = fc_lport_init_stats(lport);
	if (err)
		return err;
	fc_set_wwnn(lport, wwnn);
	fc_set_wwpn(lport, wwpn);
	if (fc_set_mfs(lport, port->max_frame + sizeof(struct fc_frame_header))) {
		dev_warn(&port->pdev->dev, "firmware's frame size %u refused, using %u\n",
			 port->max_frame, FC_MIN_MAX_FRAME);
		fc_set_mfs(lport, FC_MIN_MAX_FRAME);
	}
	fc_exch_init(lport);
	fc_elsct_init(lport);
	fc_disc_init(lport);
	fc_disc_config(lport, lport);
	/* the fc_host attributes exist once the host is added; DMA is the card's */
	err = scsi_add_host_with_dma(shost, parent, &port->pdev->dev);
	if (err)
		return err;
	fc_lport_init(lport);
	fc_host_supported_speeds(shost) = lport->link_supported_speeds;
	snprintf(fc_host_symbolic_name(shost), FC_SYMBOLIC_NAME_SIZE,
		 "Brocade-%u FW:%s DVR:%s", port->card_type,
		 port->fw_version, BFA_NAME);
	spin_lock_irq(&port->els_lock);
	port->logins[lp->tag] = lp;
	spin_unlock_irq(&port->els_lock);
	return 0;
}

/* The local port goes: libfc first, then the host, then libfc's memory. */
static void bfa_fc_teardown(struct bfa_lp *lp)
{
	struct fc_lport *lport = lp->lport;

	fc_fabric_logoff(lport);
	fc_lport_destroy(lport);
	bfa_els_forget(lp->port, lport);
	fc_remove_host(lport->host);
	scsi_remove_host(lport->host);
	bfa_fc_release(lport);
}

/* A free login tag for a vport, or 0. */
static unsigned int bfa_fc_vport_tag(struct bfa_port *port)
{
	unsigned int tag;

	spin_lock_irq(&port->els_lock);
	for (tag = 1; tag < BFA_LOGINS && port->logins[tag]; tag++)
		;
	spin_unlock_irq(&port->els_lock);
	return tag < BFA_LOGINS ? tag : 0;
}

/* A vport at work logs in (FDISC) once the port's own login allows. */
static void bfa_fc_vport_run(struct fc_lport *vn, bool run)
{
	if (run) {
		vn->boot_time = jiffies;
		fc_fabric_login(vn);
		fc_vport_setlink(vn);
	} else {
		fc_vport_set_state(vn->vport, FC_VPORT_DISABLED);
		fc_fabric_logoff(vn);
	}
}

static int bfa_fc_vport_create(struct fc_vport *vport, bool disable)
{
	struct fc_lport *n_port = shost_priv(vport_to_shost(vport));
	struct bfa_lp *base = lport_priv(n_port), *lp;
	struct bfa_port *port = base->port;
	unsigned int tag = bfa_fc_vport_tag(port);
	struct fc_lport *vn;
	int err;

	if (!tag)
		return -ENOSPC;
	vn = libfc_vport_create(vport, sizeof(*lp));
	if (!vn)
		return -ENOMEM;
	lp = lport_priv(vn);
	lp->port = port;
	lp->lport = vn;
	lp->tag = tag;
	/* one exchange manager for all: libfc's IDs stay unique */
	err = fc_exch_mgr_list_clone(n_port, vn);
	if (!err)
		err = bfa_fc_setup(lp, vport->port_name, vport->node_name,
				   &vport->dev, bfa_fc_vport_transport);
	if (err) {
		mutex_lock(&n_port->lp_mutex);
		list_del(&vn->list);
		mutex_unlock(&n_port->lp_mutex);
		if (vn->host->shost_state != SHOST_CREATED) {
			bfa_fc_teardown(lp);
		} else {
			bfa_els_forget(port, vn);
			bfa_fc_release(vn);
		}
		return err;
	}
	vn->link_speed = n_port->link_speed;
	bfa_fc_vport_run(vn, !disable);
	return 0;
}

static int bfa_fc_vport_delete(struct fc_vport *vport)
{
	struct fc_lport *n_port = shost_priv(vport_to_shost(vport));
	struct fc_lport *vn = vport->dd_data;

	mutex_lock(&n_port->lp_mutex);
	list_del(&vn->list);
	mutex_unlock(&n_port->lp_mutex);
	bfa_fc_teardown(lport_priv(vn));
	return 0;
}

static int bfa_fc_vport_disable(struct fc_vport *vport, bool disable)
{
	bfa_fc_vport_run(vport->dd_data, !disable);
	return 0;
}

/* what fc_host, fc_remote_ports and the SCSI targets show, and who fills it */
static struct fc_function_template bfa_fc_functions = {
	/* libfc keeps the state and counters; the driver acts */
	.get_fc_host_stats = fc_get_host_stats, .reset_fc_host_stats = bfa_fc_reset_stats,
	.get_host_port_state = fc_get_host_port_state, .get_host_speed = fc_get_host_speed,
	.set_rport_dev_loss_tmo = fc_set_rport_loss_tmo,
	.issue_fc_host_lip = bfa_fc_issue_lip, .bsg_request = fc_lport_bsg_request,
	.vport_create = bfa_fc_vport_create, .vport_delete = bfa_fc_vport_delete,
	.vport_disable = bfa_fc_vport_disable,
	.dd_fcrport_size = sizeof(struct bfa_rport_priv),

	.show_host_port_name = 1, .show_host_node_name = 1,
	.show_host_port_id = 1, .show_host_port_type = 1,
	.show_host_port_state = 1, .show_host_fabric_name = 1,
	.show_host_speed = 1, .show_host_supported_speeds = 1,
	.show_host_maxframe_size = 1, .show_host_symbolic_name = 1,
	.show_host_supported_classes = 1, .show_host_supported_fc4s = 1,
	.show_host_active_fc4s = 1,

	.show_rport_dev_loss_tmo = 1, .show_rport_maxframe_size = 1,
	.show_rport_supported_classes = 1,
	.show_starget_port_name = 1, .show_starget_node_name = 1,
	.show_starget_port_id = 1,
};

int bfa_fc_attach(struct bfa_port *port)
{
	struct fc_lport *lport;
	struct bfa_lp *lp;
	int err;

	lport = libfc_host_alloc(&bfa_io_sht, sizeof(*lp));
	if (!lport)
		return -ENOMEM;
	lp = lport_priv(lport);
	lp->port = port;
	lp->lport = lport;
	port->n_io = min_t(unsigned int, BFA_IOS,
			   be16_to_cpu(port->shared->cfg.num_ios));
	err = -ENOMEM;
	if (fc_exch_mgr_alloc(lport, FC_CLASS_3, BFA_ELS_XID_MIN,
			      BFA_ELS_XID_MAX, NULL))
		err = bfa_fc_setup(lp, port->wwpn, port->wwnn, &port->pdev->dev,
				   bfa_fc_transport);
	if (err) {
		dev_err(&port->pdev->dev, "no SCSI host: %d\n", err);
		bfa_els_forget(port, lport);
		if (lport->host->shost_state != SHOST_CREATED)
			scsi_remove_host(lport->host);
		bfa_fc_release(lport);
		return err;
	}
	fc_host_max_npiv_vports(lport->host) = BFA_LOGINS - 1;
	INIT_WORK(&port->link_work, bfa_fc_link_work);
	spin_lock_irq(&port->els_lock);
	port->lport = lport;
	spin_unlock_irq(&port->els_lock);
	fc_fabric_login(lport);
	if (READ_ONCE(port->link_up))
		bfa_fc_link_changed(port);
	return 0;
}

void bfa_fc_detach(struct bfa_port *port)
{
	struct fc_lport *lport = port->lport;

	if (!lport)
		return;
	spin_lock_irq(&port->els_lock);
	port->lport = NULL;
	spin_unlock_irq(&port->els_lock);
	cancel_work_sync(&port->link_work);
	bfa_fc_teardown(lport_priv(lport));
}

int bfa_fc_init(void)
{
	bfa_fc_transport = fc_attach_transport(&bfa_fc_functions);
	if (!bfa_fc_transport)
		return -ENOMEM;
	/* a vport's host: the same attributes, no vports of its own */
	bfa_fc_vport_functions = bfa_fc_functions;
	bfa_fc_vport_functions.vport_create = NULL;
	bfa_fc_vport_functions.vport_delete = NULL;
	bfa_fc_vport_functions.vport_disable = NULL;
	bfa_fc_vport_transport = fc_attach_transport(&bfa_fc_vport_functions);
	if (!bfa_fc_vport_transport) {
		fc_release_transport(bfa_fc_transport);
		return -ENOMEM;
	}
	return 0;
}

void bfa_fc_exit(void)
{
	fc_release_transport(bfa_fc_vport_transport);
	fc_release_transport(bfa_fc_transport);
}
