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

static int bfa_fc_queuecommand(struct Scsi_Host *shost, struct scsi_cmnd *sc)
{
	sc->result = DID_NO_CONNECT << 16;
	scsi_done(sc);
	return 0;
}

static struct scsi_host_template bfa_fc_sht = {
	.module = THIS_MODULE,
	.name = "Brocade FC HBA",
	.proc_name = BFA_NAME,
	.queuecommand = bfa_fc_queuecommand,
	.this_id = -1,
	.can_queue = 1,
	.sg_tablesize = 1,
	.max_sectors = 0xffff,
	.track_queue_depth = 1,
};

/* what fc_host, fc_remote_ports and the SCSI targets show, and who fills it */
static struct fc_function_template bfa_fc_functions = {
	.get_fc_host_stats = fc_get_host_stats,
	.get_host_port_state = fc_get_host_port_state,
	.get_host_speed = fc_get_host_speed,
	.set_rport_dev_loss_tmo = fc_set_rport_loss_tmo,
	.dd_fcrport_size = sizeof(struct fc_rport_libfc_priv),

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

int bfa_fc_attach(struct bfa_port *port)
{
	struct Scsi_Host *shost;
	struct fc_lport *lport;
	struct bfa_lp *lp;
	unsigned int s;
	int err;

	lport = libfc_host_alloc(&bfa_fc_sht, sizeof(*lp));
	if (!lport)
		return -ENOMEM;
	shost = lport->host;
	lp = lport_priv(lport);
	lp->port = port;
	lp->lport = lport;
	shost->transportt = bfa_fc_transport;
	shost->max_channel = 0;
	shost->max_cmd_len = 16;
	lport->e_d_tov = 2 * MSEC_PER_SEC;
	lport->r_a_tov = 10 * MSEC_PER_SEC;
	lport->max_retry_count = 3;
	lport->max_rport_retry_count = 3;
	lport->service_params = FCP_SPPF_INIT_FCN | FCP_SPPF_RD_XRDY_DIS;
	lport->tt.frame_send = bfa_els_frame_send;
	lport->tt.exch_mgr_reset = bfa_els_exch_reset;
	lport->tt.fcp_cleanup = bfa_fc_no_fcp;
	lport->tt.fcp_abort_io = bfa_fc_no_fcp;
	/* an FC port also runs at the two speeds before its own */
	for (s = max(port->speed_gbit / 4, 1u); s <= min(port->speed_gbit, 8u);
	     s *= 2)
		lport->link_supported_speeds |= bfa_fc_speed(s);

	fc_lport_config(lport);
	err = fc_lport_init_stats(lport);
	if (err)
		goto release;
	fc_set_wwnn(lport, port->wwnn);
	fc_set_wwpn(lport, port->wwpn);
	if (fc_set_mfs(lport, port->max_frame + sizeof(struct fc_frame_header))) {
		dev_warn(&port->pdev->dev, "firmware's frame size %u refused, using %u\n",
			 port->max_frame, FC_MIN_MAX_FRAME);
		fc_set_mfs(lport, FC_MIN_MAX_FRAME);
	}
	err = -ENOMEM;
	if (!fc_exch_mgr_alloc(lport, FC_CLASS_3, BFA_ELS_XID_MIN,
			       BFA_ELS_XID_MAX, NULL))
		goto release;
	fc_exch_init(lport);
	fc_elsct_init(lport);
	fc_disc_init(lport);
	fc_disc_config(lport, lport);
	/* the fc_host attributes exist once the host is added */
	err = scsi_add_host(shost, &port->pdev->dev);
	if (err)
		goto release;
	fc_lport_init(lport);
	fc_host_supported_speeds(shost) = lport->link_supported_speeds;
	snprintf(fc_host_symbolic_name(shost), FC_SYMBOLIC_NAME_SIZE,
		 "Brocade-%u FW:%s DVR:%s", port->card_type,
		 port->fw_version, BFA_NAME);
	INIT_WORK(&port->link_work, bfa_fc_link_work);
	spin_lock_irq(&port->els_lock);
	port->logins[0] = lp;
	port->lport = lport;
	spin_unlock_irq(&port->els_lock);
	fc_fabric_login(lport);
	if (READ_ONCE(port->link_up))
		bfa_fc_link_changed(port);
	return 0;

release:
	bfa_fc_release(lport);
	return err;
}

void bfa_fc_detach(struct bfa_port *port)
{
	struct fc_lport *lport = port->lport;
	struct Scsi_Host *shost;

	if (!lport)
		return;
	shost = lport->host;
	spin_lock_irq(&port->els_lock);
	port->lport = NULL;
	spin_unlock_irq(&port->els_lock);
	cancel_work_sync(&port->link_work);
	/* libfc stops first, then the host goes, then libfc's memory */
	fc_fabric_logoff(lport);
	fc_lport_destroy(lport);
	bfa_els_forget(port, lport);
	fc_remove_host(shost);
	scsi_remove_host(shost);
	bfa_fc_release(lport);
}

int bfa_fc_init(void)
{
	bfa_fc_transport = fc_attach_transport(&bfa_fc_functions);
	return bfa_fc_transport ? 0 : -ENOMEM;
}

void bfa_fc_exit(void)
{
	fc_release_transport(bfa_fc_transport);
}
