// SPDX-License-Identifier: GPL-2.0
/*
 * Brocade Fibre Channel HBA driver: the FC port.
 *
 * Once the IOC is up and the rings are configured, the port is enabled
 * with its names and configuration; the firmware then reports the link
 * coming up (speed, topology) and going down.
 */
#include "bfa.h"

static const struct bfa_port_cfg bfa_port_cfg_default = {
	.topology = BFA_TOPO_P2P,
	.speed = BFA_SPEED_AUTO,
	.rate_limit_speed = 1,
};

int bfa_port_enable(struct bfa_port *port)
{
	struct bfa_fcport_enable_req req = {
		.hdr = { .class = BFA_MC_FCPORT, .id = BFA_FCPORT_ENABLE,
			 .dest = port->fn << 1 | port->fn },
		.nwwn = cpu_to_be64(port->wwnn),
		.pwwn = cpu_to_be64(port->wwpn),
		.cfg = bfa_port_cfg_default,
		.tag = ++port->fcport_tag,
	};

	req.cfg.max_frame = cpu_to_be16(port->max_frame);
	req.cfg.rx_bb_credit = port->rx_bb_credit;
	bfa_dma_set(&req.stats, port->shared_dma +
		    offsetof(struct bfa_shared, port_stats));
	return bfa_queue_send(port, 0, &req, sizeof(req));
}

static void bfa_port_link(struct bfa_port *port, bool up, unsigned int speed)
{
	if (up == port->link_up)
		return;
	port->link_up = up;
	port->link_speed = up ? speed : 0;
	if (up)
		dev_info(&port->pdev->dev, "link up at %u Gbit/s\n", speed);
	else
		dev_info(&port->pdev->dev, "link down\n");
	bfa_fc_link_changed(port);
}

/* The IOC went down: so did the link, whatever the firmware said last. */
void bfa_port_offline(struct bfa_port *port)
{
	bfa_port_link(port, false, 0);
}

/* A message of the FC port class from a response ring. */
void bfa_port_msg(struct bfa_port *port, const void *msg)
{
	const struct bfa_fcport_event *ev = msg;

	switch (ev->hdr.id) {
	case BFA_REPLY(BFA_FCPORT_ENABLE):
		break;
	case BFA_FCPORT_EVENT:
		bfa_port_link(port, ev->state == BFA_LINK_UP, ev->speed);
		break;
	default:
		dev_dbg(&port->pdev->dev, "FC port message %u ignored\n",
			ev->hdr.id);
		break;
	}
}
