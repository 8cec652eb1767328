/*
 * The Fibre Channel fabric behind the emulated Brocade 825: one switch with
 * its login server, name server and fabric controller, and a remote N_Port
 * for every SCSI target id that has LUNs on the HBA's bus.
 *
 * Frames are handled as whole sequences: the firmware side hands over an
 * ELS or CT request (header and payload, wire byte order) and gets the
 * reply back at once, or nothing when the exchange would time out.
 * Unsolicited traffic towards the HBA (RSCN) is pushed through
 * bcb_port_receive().
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/cutils.h"
#include "qemu/log.h"
#include "brocade-cb.h"

/* frame header fields */
#define FH_RCTL         0
#define FH_DID          1
#define FH_SID          5
#define FH_TYPE         8
#define FH_FCTL         9
#define FH_OXID         16
#define FH_RXID         18

#define RCTL_ELS_REQ    0x22
#define RCTL_ELS_REP    0x23
#define RCTL_CT_REP     0x03
#define TYPE_ELS        0x01
#define TYPE_FCP        0x08
#define TYPE_CT         0x20

/* ELS commands */
enum {
    ELS_RJT = 0x01, ELS_ACC = 0x02, ELS_PLOGI = 0x03, ELS_FLOGI = 0x04,
    ELS_LOGO = 0x05, ELS_RLS = 0x0f, ELS_ECHO = 0x10, ELS_REC = 0x13,
    ELS_PRLI = 0x20, ELS_PRLO = 0x21, ELS_ADISC = 0x52, ELS_RSCN = 0x61,
    ELS_SCR = 0x62, ELS_RNID = 0x78,
};

#define ECHO_MAX 2112           /* the largest ELS payload */

/* LS_RJT reasons and explanations */
#define RJT_UNSUPPORTED 0x0b
#define RJT_UNABLE      0x09
#define RJT_LOGICAL     0x03
#define EXPL_NONE       0x00
#define EXPL_NO_LOGIN   0x1e

/* generic services: CT preamble and name server commands */
#define CT_SIZE         16
#define CT_GS_DIR       0xfc
#define CT_NS           0x02
#define CT_ACC          0x8002
#define CT_RJT          0x8001
#define CT_RJT_CMD      0x0b        /* command not supported */
#define CT_RJT_UNABLE   0x09
#define CT_EXPL_NONE    0x00
#define CT_EXPL_NO_PORT 0x01        /* port identifier not registered */
#define CT_EXPL_NO_FC4  0x07        /* FC-4 types not registered */

enum {
    NS_GA_NXT = 0x0100, NS_GPN_ID = 0x0112, NS_GNN_ID = 0x0113,
    NS_GFT_ID = 0x0117, NS_GSPN_ID = 0x0118, NS_GFF_ID = 0x011f,
    NS_GID_PN = 0x0121, NS_GID_FT = 0x0171, NS_GPN_FT = 0x0172,
    NS_GNN_FT = 0x0173, NS_RPN_ID = 0x0212, NS_RNN_ID = 0x0213,
    NS_RFT_ID = 0x0217, NS_RSPN_ID = 0x0218, NS_RFF_ID = 0x021f,
    NS_RSNN_NN = 0x0239, NS_DA_ID = 0x0300,
};

/* well-known addresses */
#define WK_NS           0xfffffc
#define WK_FCTL         0xfffffd

/* FCP service parameter page (PRLI) */
#define PRLI_PAGE       16
#define PRLI_EST_IMG    0x20
#define PRLI_RSP_OK     0x01
#define FCP_SPP_TARGET  0x10
#define FCP_SPP_INIT    0x20
#define FCP_SPP_RD_XRDY 0x02

#define FABRIC_WWN      0x1000525400fa0b00ull
#define SWITCH_WWNN     0x2000525400fa0b00ull
#define DOMAIN          0x01

/* ---- addresses, names -------------------------------------------------- */

static uint32_t ld24(const uint8_t *p)
{
    return p[0] << 16 | p[1] << 8 | p[2];
}

static void st24(uint8_t *p, uint32_t v)
{
    p[0] = v >> 16;
    p[1] = v >> 8;
    p[2] = v;
}

/*
 * Names and addresses of remote port t.  Point to point, the one peer
 * takes the address the HBA gave it and has a port name below the HBA's,
 * so that the HBA is the side that assigns the addresses.
 */
static uint32_t target_pid(BcbState *s, int t)
{
    return s->p2p ? s->fabric.p2p_peer : DOMAIN << 16 | (0x10 + t) << 8;
}

static uint64_t target_wwpn(BcbState *s, int t)
{
    return (s->p2p ? 0x10000000c9000000ull : 0x50060e8000000000ull) |
           (uint64_t)t << 8 | 1;
}

static uint64_t target_wwnn(BcbState *s, int t)
{
    return (s->p2p ? 0x20000000c9000000ull : 0x50060e8000000000ull) |
           (uint64_t)t << 8;
}

/* The initiator's N_Port ID for HBA port p and virtual port v (0: base). */
static uint32_t initiator_pid(int port, int v)
{
    return DOMAIN << 16 | (1 + port) << 8 | v;
}

static bool target_present(BcbState *s, int t)
{
    BusChild *kid;

    if (t < 0 || t >= BCB_MAX_TARGETS || (s->targets_away >> t) & 1) {
        return false;
    }
    QTAILQ_FOREACH(kid, &s->bus.qbus.children, sibling) {
        SCSIDevice *d = SCSI_DEVICE(kid->child);

        if (d->id == t) {
            return true;
        }
    }
    return false;
}

/* The target that is the peer of a point-to-point link: the first one. */
static int p2p_target(BcbState *s)
{
    int t;

    for (t = 0; t < BCB_MAX_TARGETS; t++) {
        if (target_present(s, t)) {
            return t;
        }
    }
    return -1;
}

/* The target behind an N_Port ID, or -1. */
int bcb_fabric_target(BcbState *s, uint32_t pid)
{
    int t = ((pid >> 8) & 0xff) - 0x10;

    if (s->p2p) {
        return pid && pid == s->fabric.p2p_peer ? p2p_target(s) : -1;
    }
    if ((pid >> 16) != DOMAIN || (pid & 0xff) || !target_present(s, t)) {
        return -1;
    }
    return t;
}

static BcbLogin *initiator_find(BcbState *s, uint32_t pid)
{
    int i;

    for (i = 0; i < BCB_MAX_LOGINS; i++) {
        if (s->fabric.login[i].pid == pid) {
            return &s->fabric.login[i];
        }
    }
    return NULL;
}

/* ---- the login server -------------------------------------------------- */

/*
 * FLOGI (vport 0) or FDISC from HBA port p.  Returns the N_Port ID
 * assigned, or 0 with an LS_RJT reason when the login is refused.
 */
uint32_t bcb_fabric_login(BcbState *s, int port, bool fdisc, uint64_t wwpn,
                          uint64_t wwnn, uint8_t *reason)
{
    BcbLogin *l, *base = initiator_find(s, initiator_pid(port, 0));
    int i, v;

    *reason = RJT_UNABLE;
    if (!fdisc) {
        /* a new fabric login forgets everything the port had */
        bcb_fabric_link_lost(s, port);
        v = 0;
    } else {
        if (!base) {
            *reason = RJT_LOGICAL;
            return 0;
        }
        for (v = 1; v < 64 && initiator_find(s, initiator_pid(port, v)); v++) {
            continue;
        }
    }
    for (i = 0; i < BCB_MAX_LOGINS; i++) {
        if (s->fabric.login[i].pid == 0) {
            break;
        }
        if (s->fabric.login[i].wwpn == wwpn) {
            /* a port name may be logged in once in the fabric */
            *reason = RJT_LOGICAL;
            return 0;
        }
    }
    if (i == BCB_MAX_LOGINS || v == 64) {
        return 0;
    }
    l = &s->fabric.login[i];
    l->port = port;
    l->pid = initiator_pid(port, v);
    l->wwpn = wwpn;
    l->wwnn = wwnn;
    return l->pid;
}

void bcb_fabric_logout(BcbState *s, uint32_t pid)
{
    BcbLogin *l = initiator_find(s, pid);

    if (l) {
        memset(l, 0, sizeof(*l));
    }
}

/* Link loss: the switch forgets the port's logins, the targets theirs. */
void bcb_fabric_link_lost(BcbState *s, int port)
{
    int i, j, t;

    s->fabric.p2p_peer = 0;
    for (i = 0; i < BCB_MAX_LOGINS; i++) {
        BcbLogin *l = &s->fabric.login[i];

        if (!l->pid || l->port != port) {
            continue;
        }
        for (t = 0; t < BCB_MAX_TARGETS; t++) {
            for (j = 0; j < BCB_MAX_LOGINS; j++) {
                if (s->fabric.session[t][j].sid == l->pid) {
                    memset(&s->fabric.session[t][j], 0, sizeof(BcbSession));
                }
            }
        }
        memset(l, 0, sizeof(*l));
    }
}

/* Point to point: the peer's names, for the answer to the HBA's FLOGI. */
bool bcb_fabric_p2p_peer(BcbState *s, uint64_t *wwpn, uint64_t *wwnn)
{
    int t = p2p_target(s);

    if (t < 0) {
        return false;
    }
    *wwpn = target_wwpn(s, t);
    *wwnn = target_wwnn(s, t);
    return true;
}

/*
 * Point to point: the HBA took address pid for itself (it has the higher
 * port name); its exchanges are accepted from now on.
 */
void bcb_fabric_p2p_local(BcbState *s, int port, uint32_t pid, uint64_t wwpn,
                          uint64_t wwnn)
{
    BcbLogin *l;
    int i;

    bcb_fabric_link_lost(s, port);
    for (i = 0; i < BCB_MAX_LOGINS - 1 && s->fabric.login[i].pid; i++) {
        continue;
    }
    l = &s->fabric.login[i];
    memset(l, 0, sizeof(*l));
    l->port = port;
    l->pid = pid;
    l->wwpn = wwpn;
    l->wwnn = wwnn;
    s->fabric.p2p_peer = 0;
}

uint64_t bcb_fabric_name(void)
{
    return FABRIC_WWN;
}

/* ---- common service parameters ----------------------------------------- */

/* Service parameters of a login payload (after the command word). */
static void service_params(uint8_t *p, uint64_t wwpn, uint64_t wwnn,
                           bool fabric)
{
    /* common: FC-PH version 0x20, 0x20; BB credit; features; frame size */
    p[4] = 0x20;
    p[5] = 0x20;
    stw_be_p(p + 6, 16);
    stw_be_p(p + 8, fabric ? 0x1000 : 0x8000);  /* F_Port / cont. offset */
    stw_be_p(p + 10, 2048);
    stw_be_p(p + 12, 0x00ff);                   /* total sequences */
    stw_be_p(p + 14, 0x001f);                   /* relative offset cats */
    stl_be_p(p + 16, 2000);                     /* E_D_TOV, ms */
    stq_be_p(p + 20, wwpn);
    stq_be_p(p + 28, wwnn);
    /* class 3 valid, sequential delivery; receive size; sequences */
    stw_be_p(p + 68, 0x8800);
    stw_be_p(p + 74, 2048);
    stw_be_p(p + 76, 0x00ff);
    stw_be_p(p + 80, 0x0001);
}

/* ---- ELS --------------------------------------------------------------- */

static size_t els_rjt(uint8_t *rsp, uint8_t reason, uint8_t expl)
{
    memset(rsp, 0, 8);
    rsp[0] = ELS_RJT;
    rsp[5] = reason;
    rsp[6] = expl;
    return 8;
}

static size_t els_acc(uint8_t *rsp)
{
    memset(rsp, 0, 4);
    rsp[0] = ELS_ACC;
    return 4;
}

/* An ELS to one of the fabric's well-known addresses. */
static size_t els_fabric(BcbState *s, BcbLogin *l, uint32_t did,
                         const uint8_t *req, size_t len, uint8_t *rsp)
{
    switch (req[0]) {
    case ELS_PLOGI:
        if (len < 116) {
            return els_rjt(rsp, RJT_LOGICAL, EXPL_NONE);
        }
        memset(rsp, 0, 116);
        rsp[0] = ELS_ACC;
        service_params(rsp, 0x2000000000000000ull | did, SWITCH_WWNN, false);
        return 116;
    case ELS_LOGO:
        return els_acc(rsp);
    case ELS_SCR:
        if (did != WK_FCTL) {
            break;
        }
        l->scr = true;
        return els_acc(rsp);
    default:
        break;
    }
    return els_rjt(rsp, RJT_UNSUPPORTED, EXPL_NONE);
}

static BcbSession *session_find(BcbState *s, int t, uint32_t sid, bool make)
{
    BcbSession *free_slot = NULL;
    int i;

    for (i = 0; i < BCB_MAX_LOGINS; i++) {
        BcbSession *x = &s->fabric.session[t][i];

        if (x->sid == sid && x->plogi) {
            return x;
        }
        if (!x->plogi && !free_slot) {
            free_slot = x;
        }
    }
    if (make && free_slot) {
        memset(free_slot, 0, sizeof(*free_slot));
        free_slot->sid = sid;
        return free_slot;
    }
    return NULL;
}

/* Is there an FCP session from sid to target t?  I/O needs one. */
bool bcb_fabric_session(BcbState *s, int t, uint32_t sid)
{
    BcbSession *x = session_find(s, t, sid, false);

    return x && x->prli;
}

/* The accept of a PRLI or PRLO: one FCP service parameter page. */
static size_t prli_acc(uint8_t *rsp, uint8_t flags, uint32_t params)
{
    memset(rsp, 0, 4 + PRLI_PAGE);
    rsp[0] = ELS_ACC;
    rsp[1] = PRLI_PAGE;
    stw_be_p(rsp + 2, 4 + PRLI_PAGE);
    rsp[4] = TYPE_FCP;
    rsp[6] = flags;
    stl_be_p(rsp + 16, params);
    return 4 + PRLI_PAGE;
}

/* An ELS to remote port t. */
static size_t els_target(BcbState *s, int t, uint32_t sid, const uint8_t *req,
                         size_t len, uint8_t *rsp)
{
    BcbSession *x = session_find(s, t, sid, false);

    switch (req[0]) {
    case ELS_PLOGI:
        if (len < 116) {
            return els_rjt(rsp, RJT_LOGICAL, EXPL_NONE);
        }
        x = session_find(s, t, sid, true);
        if (!x) {
            return els_rjt(rsp, RJT_UNABLE, EXPL_NONE);
        }
        x->plogi = true;
        x->prli = false;
        memset(rsp, 0, 116);
        rsp[0] = ELS_ACC;
        service_params(rsp, target_wwpn(s, t), target_wwnn(s, t), false);
        return 116;
    case ELS_LOGO:
        if (x) {
            x->plogi = x->prli = false;
        }
        return els_acc(rsp);
    case ELS_PRLI:
        if (!x) {
            return els_rjt(rsp, RJT_UNABLE, EXPL_NO_LOGIN);
        }
        if (len < 4 + PRLI_PAGE || req[4 + 0] != TYPE_FCP) {
            return els_rjt(rsp, RJT_LOGICAL, EXPL_NONE);
        }
        x->prli = true;
        /* image pair established, response code "request executed" */
        return prli_acc(rsp, PRLI_EST_IMG | PRLI_RSP_OK,
                        FCP_SPP_TARGET | FCP_SPP_RD_XRDY);
    case ELS_PRLO:
        if (x) {
            x->prli = false;
        }
        return prli_acc(rsp, PRLI_RSP_OK, 0);
    case ELS_ECHO:
        /* the data comes back behind the accept */
        if (!x) {
            return els_rjt(rsp, RJT_UNABLE, EXPL_NO_LOGIN);
        }
        len = MIN(len, ECHO_MAX);
        memcpy(rsp, req, len);
        memset(rsp + 1, 0, 3);
        rsp[0] = ELS_ACC;
        return len;
    case ELS_ADISC:
        if (!x) {
            return els_rjt(rsp, RJT_UNABLE, EXPL_NO_LOGIN);
        }
        memset(rsp, 0, 28);
        rsp[0] = ELS_ACC;
        stq_be_p(rsp + 8, target_wwpn(s, t));
        stq_be_p(rsp + 16, target_wwnn(s, t));
        st24(rsp + 25, target_pid(s, t));
        return 28;
    default:
        return els_rjt(rsp, RJT_UNSUPPORTED, EXPL_NONE);
    }
}

/* ---- name server ------------------------------------------------------- */

static size_t ct_reply(uint8_t *rsp, const uint8_t *req, uint16_t code,
                       uint8_t reason, uint8_t expl)
{
    memset(rsp, 0, CT_SIZE);
    rsp[0] = 1;                     /* revision */
    rsp[4] = req[4];
    rsp[5] = req[5];
    stw_be_p(rsp + 8, code);
    rsp[13] = reason;
    rsp[14] = expl;
    return CT_SIZE;
}

/* One name server entry: a target or a logged-in initiator port. */
typedef struct NsEntry {
    uint32_t pid;
    uint64_t wwpn, wwnn;
    bool fcp;
    uint8_t features;               /* FCP features: bit 0 target, 1 init */
    const char *spn;
} NsEntry;

static int ns_entries(BcbState *s, NsEntry *e, int max)
{
    int n = 0, t, i;

    for (i = 0; i < BCB_MAX_LOGINS && n < max; i++) {
        BcbLogin *l = &s->fabric.login[i];

        if (l->pid) {
            e[n] = (NsEntry) { l->pid, l->wwpn, l->wwnn, l->fc4_fcp,
                               l->features, l->spn };
            n++;
        }
    }
    for (t = 0; t < BCB_MAX_TARGETS && n < max; t++) {
        if (target_present(s, t)) {
            e[n] = (NsEntry) { target_pid(s, t), target_wwpn(s, t),
                               target_wwnn(s, t), true, 0x01, "QEMU target" };
            n++;
        }
    }
    /* by port identifier, as a switch walks its ports */
    for (i = 1; i < n; i++) {
        for (t = i; t > 0 && e[t - 1].pid > e[t].pid; t--) {
            NsEntry x = e[t];

            e[t] = e[t - 1];
            e[t - 1] = x;
        }
    }
    return n;
}

static const NsEntry *ns_lookup(const NsEntry *e, int n, uint32_t pid)
{
    int i;

    for (i = 0; i < n; i++) {
        if (e[i].pid == pid) {
            return &e[i];
        }
    }
    return NULL;
}

static size_t ns_query(BcbState *s, const uint8_t *req, size_t len,
                       uint8_t *rsp, size_t max)
{
    NsEntry e[BCB_MAX_LOGINS + BCB_MAX_TARGETS];
    int n = ns_entries(s, e, ARRAY_SIZE(e));
    uint16_t cmd = lduw_be_p(req + 8);
    const uint8_t *arg = req + CT_SIZE;
    const NsEntry *x;
    size_t off = CT_SIZE;
    int i;

    if (len < CT_SIZE + 4) {
        return ct_reply(rsp, req, CT_RJT, CT_RJT_UNABLE, CT_EXPL_NONE);
    }
    switch (cmd) {
    case NS_GID_FT:
    case NS_GPN_FT:
    case NS_GNN_FT: {
        /* arg: domain/area scope and FC-4 type */
        size_t each = cmd == NS_GID_FT ? 4 : 16;
        bool any = false;

        ct_reply(rsp, req, CT_ACC, 0, 0);
        for (i = 0; i < n; i++) {
            if (arg[3] != TYPE_FCP || !e[i].fcp) {
                continue;
            }
            if (off + each > max) {
                break;
            }
            memset(rsp + off, 0, each);
            st24(rsp + off + 1, e[i].pid);
            if (cmd == NS_GPN_FT) {
                stq_be_p(rsp + off + 8, e[i].wwpn);
            } else if (cmd == NS_GNN_FT) {
                stq_be_p(rsp + off + 8, e[i].wwnn);
            }
            off += each;
            any = true;
        }
        if (!any) {
            return ct_reply(rsp, req, CT_RJT, CT_RJT_UNABLE, CT_EXPL_NO_FC4);
        }
        rsp[off - each] |= 0x80;            /* last entry */
        return off;
    }
    case NS_GPN_ID:
    case NS_GNN_ID:
    case NS_GFF_ID:
    case NS_GFT_ID:
    case NS_GSPN_ID:
        x = ns_lookup(e, n, ld24(arg + 1));
        if (!x) {
            return ct_reply(rsp, req, CT_RJT, CT_RJT_UNABLE, CT_EXPL_NO_PORT);
        }
        ct_reply(rsp, req, CT_ACC, 0, 0);
        if (cmd == NS_GPN_ID || cmd == NS_GNN_ID) {
            stq_be_p(rsp + off, cmd == NS_GPN_ID ? x->wwpn : x->wwnn);
            return off + 8;
        }
        if (cmd == NS_GFF_ID) {
            /* 128 bytes of FC-4 features, 4 bits per type */
            memset(rsp + off, 0, 128);
            rsp[off + 7] = x->fcp ? x->features : 0;   /* type 8 */
            return off + 128;
        }
        if (cmd == NS_GFT_ID) {
            memset(rsp + off, 0, 32);
            if (x->fcp) {
                rsp[off + 2] = 0x01;        /* type 8: word 0, bit 8 */
            }
            return off + 32;
        }
        memset(rsp + off, 0, 256);
        rsp[off] = strlen(x->spn ? x->spn : "");
        memcpy(rsp + off + 1, x->spn ? x->spn : "", rsp[off]);
        return off + 256;
    case NS_GID_PN:
        for (i = 0; i < n; i++) {
            if (e[i].wwpn == ldq_be_p(arg)) {
                ct_reply(rsp, req, CT_ACC, 0, 0);
                memset(rsp + off, 0, 4);
                st24(rsp + off + 1, e[i].pid);
                return off + 4;
            }
        }
        return ct_reply(rsp, req, CT_RJT, CT_RJT_UNABLE, CT_EXPL_NO_PORT);
    default:
        return ct_reply(rsp, req, CT_RJT, CT_RJT_CMD, CT_EXPL_NONE);
    }
}

static size_t ns_register(BcbState *s, BcbLogin *l, const uint8_t *req,
                          size_t len, uint8_t *rsp)
{
    uint16_t cmd = lduw_be_p(req + 8);
    const uint8_t *arg = req + CT_SIZE;
    size_t alen = len - CT_SIZE;

    /* a port registers only itself */
    if (cmd != NS_RSNN_NN && (alen < 4 || ld24(arg + 1) != l->pid)) {
        return ct_reply(rsp, req, CT_RJT, CT_RJT_UNABLE, CT_EXPL_NO_PORT);
    }
    switch (cmd) {
    case NS_RFT_ID:
        if (alen < 4 + 32) {
            break;
        }
        /* FC-4 type 8 is bit 8 of the first word of the bitmap */
        l->fc4_fcp = arg[4 + 2] & 0x01;
        return ct_reply(rsp, req, CT_ACC, 0, 0);
    case NS_RFF_ID:
        if (alen < 8) {
            break;
        }
        if (arg[7] == TYPE_FCP) {
            l->features = arg[6];
        }
        return ct_reply(rsp, req, CT_ACC, 0, 0);
    case NS_RSPN_ID:
        if (alen < 5 || arg[4] > alen - 5) {
            break;
        }
        memcpy(l->spn, arg + 5, MIN(arg[4], sizeof(l->spn) - 1));
        l->spn[MIN(arg[4], sizeof(l->spn) - 1)] = 0;
        return ct_reply(rsp, req, CT_ACC, 0, 0);
    case NS_RNN_ID:
    case NS_RPN_ID:
    case NS_RSNN_NN:
        return ct_reply(rsp, req, CT_ACC, 0, 0);
    case NS_DA_ID:
        l->fc4_fcp = false;
        l->features = 0;
        return ct_reply(rsp, req, CT_ACC, 0, 0);
    default:
        return ct_reply(rsp, req, CT_RJT, CT_RJT_CMD, CT_EXPL_NONE);
    }
    return ct_reply(rsp, req, CT_RJT, CT_RJT_UNABLE, CT_EXPL_NONE);
}

static size_t ct_request(BcbState *s, BcbLogin *l, uint32_t did,
                         const uint8_t *req, size_t len, uint8_t *rsp,
                         size_t max)
{
    if (len < CT_SIZE) {
        return 0;
    }
    if (did == WK_NS && req[4] == CT_GS_DIR && req[5] == CT_NS) {
        if (req[8] == 0x02 || req[8] == 0x03) {
            return ns_register(s, l, req, len, rsp);
        }
        return ns_query(s, req, len, rsp, max);
    }
    /* management server (FDMI) and the rest: not offered by this switch */
    return ct_reply(rsp, req, CT_RJT, CT_RJT_CMD, CT_EXPL_NONE);
}

/*
 * One exchange from the HBA: the request's header and payload in, the
 * reply's payload out.  Returns the reply length; 0 means no reply (the
 * exchange times out at the sender).
 */
size_t bcb_fabric_exchange(BcbState *s, const uint8_t *hdr,
                           const uint8_t *req, size_t len, uint8_t *rsp,
                           size_t max)
{
    uint32_t did = ld24(hdr + FH_DID), sid = ld24(hdr + FH_SID);
    BcbLogin *l = initiator_find(s, sid);
    int t;

    if (max < 256 || len < 4) {
        return 0;
    }
    if (!l) {
        /* not logged in to the fabric: frames are discarded */
        return 0;
    }
    if (hdr[FH_TYPE] == TYPE_CT) {
        return s->p2p ? 0 : ct_request(s, l, did, req, len, rsp, max);
    }
    if (hdr[FH_TYPE] != TYPE_ELS) {
        return 0;
    }
    if (did >= 0xfffff0) {
        /* point to point there is no fabric to answer */
        return s->p2p ? 0 : els_fabric(s, l, did, req, len, rsp);
    }
    if (s->p2p && !s->fabric.p2p_peer && req[0] == ELS_PLOGI) {
        s->fabric.p2p_peer = did;
    }
    t = bcb_fabric_target(s, did);
    if (t < 0) {
        return 0;
    }
    return els_target(s, t, sid, req, len, rsp);
}

/* Fill the header of a reply to hdr. */
void bcb_fabric_reply_header(const uint8_t *hdr, uint8_t *out)
{
    memset(out, 0, BCB_FCHS);
    out[FH_RCTL] = hdr[FH_TYPE] == TYPE_CT ? RCTL_CT_REP : RCTL_ELS_REP;
    memcpy(out + FH_DID, hdr + FH_SID, 3);
    memcpy(out + FH_SID, hdr + FH_DID, 3);
    out[FH_TYPE] = hdr[FH_TYPE];
    st24(out + FH_FCTL, 0x990000);      /* exchange responder, last seq */
    memcpy(out + FH_OXID, hdr + FH_OXID, 2);
    stw_be_p(out + FH_RXID, 0x1000 + (lduw_be_p(hdr + FH_OXID) & 0xfff));
}

/* ---- state change notification ----------------------------------------- */

/* Tell every port that registered for it that target t came or went. */
static void fabric_rscn(BcbState *s, int t)
{
    uint8_t hdr[BCB_FCHS] = { 0 }, pl[8];
    int i;

    pl[0] = ELS_RSCN;
    pl[1] = 4;
    stw_be_p(pl + 2, 8);
    pl[4] = 0;                          /* port address format */
    st24(pl + 5, target_pid(s, t));
    for (i = 0; i < BCB_MAX_LOGINS; i++) {
        BcbLogin *l = &s->fabric.login[i];

        if (!l->pid || !l->scr) {
            continue;
        }
        hdr[FH_RCTL] = RCTL_ELS_REQ;
        st24(hdr + FH_DID, l->pid);
        st24(hdr + FH_SID, WK_FCTL);
        hdr[FH_TYPE] = TYPE_ELS;
        st24(hdr + FH_FCTL, 0x290000);  /* first and last sequence */
        stw_be_p(hdr + FH_OXID, 0x2000 + (s->fabric.oxid++ & 0xfff));
        stw_be_p(hdr + FH_RXID, 0xffff);
        bcb_port_receive(s, (l->pid >> 8 & 0xff) - 1, hdr, pl, sizeof(pl));
    }
}

/* A target left (the session state it held goes too) or came back. */
void bcb_fabric_target_change(BcbState *s, int t, bool away)
{
    if (away) {
        memset(s->fabric.session[t], 0, sizeof(s->fabric.session[t]));
    }
    fabric_rscn(s, t);
}
