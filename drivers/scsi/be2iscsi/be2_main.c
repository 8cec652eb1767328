// SPDX-License-Identifier: GPL-2.0
/*
 * ServerEngines BladeEngine 2 iSCSI offload driver: PCI probe and remove,
 * the SCSI host and the module.
 */
#include <linux/dma-mapping.h>
#include <linux/dmapool.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <scsi/scsi_host.h>

#include "be2iscsi.h"

#define BE2_VENDOR		0x19a2
#define BE2_DEVICE_BE2		0x0212
#define BE2_DEVICE_BE3		0x0222

static bool intx;
module_param(intx, bool, 0444);
MODULE_PARM_DESC(intx, "use the INTx line instead of MSI-X (default: no)");

static struct scsi_transport_template *be2_stt;

static struct scsi_host_template be2_sht = {
	.module = THIS_MODULE, .proc_name = BE2_NAME,
	.name = "ServerEngines BladeEngine 2 iSCSI",
	.this_id = -1, .track_queue_depth = 1,
	.cmd_size = sizeof(struct iscsi_cmd),
	/* an ICD's SGL holds BE2_DATA_SGES elements of up to 64 KiB */
	.sg_tablesize = BE2_DATA_SGES, .max_segment_size = BE2_SGE_LEN_MAX,
	.max_sectors = 8192, .can_queue = BE2_MAX_ICDS, .cmd_per_lun = 64,
	.queuecommand = iscsi_queuecommand, .target_alloc = iscsi_target_alloc,
	.change_queue_depth = scsi_change_queue_depth,
	/* the card forgets a command before libiscsi aborts it */
	.eh_timed_out = iscsi_eh_cmd_timed_out, .eh_abort_handler = be2_eh_abort,
	.eh_device_reset_handler = be2_eh_device_reset,
	.eh_target_reset_handler = iscsi_eh_recover_target,
};

static int be2_function_reset(struct be2_hba *hba)
{
	struct be2_cmd_hdr h = {};
	int rc;

	rc = be2_cmd(hba, BE2_SUB_COMMON, BE2_OP_FUNCTION_RESET, &h, sizeof(h));
	if (rc)
		dev_err(&hba->pdev->dev, "function reset failed (%d)\n", rc);
	return rc > 0 ? -EIO : rc;
}

static int be2_map(struct be2_hba *hba)
{
	struct pci_dev *pdev = hba->pdev;

	hba->cfg = pci_iomap(pdev, 1, 0);
	hba->csr = pci_iomap(pdev, 2, 0);
	hba->db = pci_iomap(pdev, 4, 0);
	if (!hba->cfg || !hba->csr || !hba->db)
		return -ENOMEM;
	return 0;
}

static void be2_unmap(struct be2_hba *hba)
{
	if (hba->db)
		pci_iounmap(hba->pdev, hba->db);
	if (hba->csr)
		pci_iounmap(hba->pdev, hba->csr);
	if (hba->cfg)
		pci_iounmap(hba->pdev, hba->cfg);
}

static int be2_alloc(struct be2_hba *hba)
{
	struct device *dev = &hba->pdev->dev;
	unsigned int i;

	for (i = 0; i < BE2_MCC_ENTRIES; i++)
		init_completion(&hba->mcc_slot[i].done);
	spin_lock_init(&hba->mcc_lock);
	mutex_init(&hba->mbox_lock);
	spin_lock_init(&hba->conn_lock);
	mutex_init(&hba->cmd_buf_lock);
	spin_lock_init(&hba->icd_lock);
	/* page-aligned, as the mailbox must be (16 bytes at least) */
	hba->mbox = dma_alloc_coherent(dev, PAGE_SIZE, &hba->mbox_pa,
				       GFP_KERNEL);
	hba->cmd_buf = dma_alloc_coherent(dev, BE2_CMD_BUF_BYTES,
					  &hba->cmd_buf_pa, GFP_KERNEL);
	hba->bhs_pool = dma_pool_create("be2iscsi_bhs", dev, BE2_BHS_BYTES, 64,
					0);
	if (!hba->mbox || !hba->cmd_buf || !hba->bhs_pool)
		return -ENOMEM;
	return 0;
}

static void be2_free(struct be2_hba *hba)
{
	struct device *dev = &hba->pdev->dev;

	be2_rings_free(hba);
	bitmap_free(hba->icd_map);
	dma_pool_destroy(hba->bhs_pool);
	if (hba->cmd_buf)
		dma_free_coherent(dev, BE2_CMD_BUF_BYTES, hba->cmd_buf,
				  hba->cmd_buf_pa);
	if (hba->mbox)
		dma_free_coherent(dev, PAGE_SIZE, hba->mbox, hba->mbox_pa);
}

/* The card from reset to a working iSCSI function. */
static int be2_bring_up(struct be2_hba *hba)
{
	int rc;

	rc = be2_hw_wait_ready(hba);
	if (rc)
		return rc;
	rc = be2_fw_init(hba, true);
	if (rc) {
		dev_err(&hba->pdev->dev, "the firmware refused the driver (%d)\n",
			rc);
		return rc > 0 ? -EIO : rc;
	}
	rc = be2_function_reset(hba);
	if (rc)
		return rc;
	rc = be2_fw_config(hba);
	if (rc)
		return rc;
	hba->icd_map = bitmap_zalloc(hba->icd_count / BE2_CMDS_MAX, GFP_KERNEL);
	if (!hba->icd_map)
		return -ENOMEM;
	rc = be2_hw_irq_setup(hba);
	if (rc) {
		dev_err(&hba->pdev->dev, "no interrupt (%d)\n", rc);
		return rc;
	}
	be2_hw_intr(hba, true);
	rc = be2_rings_create(hba);
	if (rc)
		return rc;
	return be2_read_identity(hba);
}

/* The card back to reset: queues gone, the firmware told we left. */
static void be2_take_down(struct be2_hba *hba)
{
	be2_rings_destroy(hba);
	be2_hw_intr(hba, false);
	be2_hw_irq_teardown(hba);
	if (!hba->dead && hba->cid_count) {
		be2_function_reset(hba);
		be2_fw_init(hba, false);
	}
	/* nothing the card could still write into */
	pci_clear_master(hba->pdev);
}

static int be2_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct Scsi_Host *shost;
	struct be2_hba *hba;
	int rc;

	rc = pci_enable_device(pdev);
	if (rc)
		return rc;
	pci_set_master(pdev);
	rc = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (rc)
		rc = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(32));
	if (rc)
		goto disable;
	rc = pci_request_regions(pdev, BE2_NAME);
	if (rc)
		goto disable;

	rc = -ENOMEM;
	shost = iscsi_host_alloc(&be2_sht, sizeof(*hba), false);
	if (!shost)
		goto release;
	shost->transportt = be2_stt;
	shost->max_id = 512;
	shost->max_lun = 512;
	shost->max_channel = 0;
	shost->max_cmd_len = 16;
	hba = iscsi_host_priv(shost);
	hba->pdev = pdev;
	hba->shost = shost;
	hba->intx = intx;
	pci_set_drvdata(pdev, hba);

	rc = be2_map(hba);
	if (!rc)
		rc = be2_alloc(hba);
	if (rc)
		goto free;
	rc = be2_bring_up(hba);
	if (rc)
		goto down;
	rc = iscsi_host_add(shost, &pdev->dev);
	if (rc)
		goto down;
	be2_port_publish(hba, true);
	rc = be2_iface_create(hba);
	if (rc)
		goto remove_host;
	dev_info(&pdev->dev,
		 "%s, firmware %s, MAC %pM, %u connections, %u sessions, %s\n",
		 id->device == BE2_DEVICE_BE3 ? "BladeEngine 3" : "BladeEngine 2",
		 hba->fw_ver, hba->mac, hba->cid_count,
		 hba->icd_count / BE2_CMDS_MAX, hba->intx ? "INTx" : "MSI-X");
	return 0;

remove_host:
	iscsi_host_remove(shost, false);
down:
	be2_take_down(hba);
free:
	be2_free(hba);
	be2_unmap(hba);
	iscsi_host_free(shost);
release:
	pci_release_regions(pdev);
disable:
	pci_disable_device(pdev);
	return rc;
}

static void be2_remove(struct pci_dev *pdev)
{
	struct be2_hba *hba = pci_get_drvdata(pdev);
	struct Scsi_Host *shost = hba->shost;

	be2_iface_destroy(hba);
	iscsi_host_remove(shost, false);
	be2_take_down(hba);
	be2_free(hba);
	be2_unmap(hba);
	iscsi_host_free(shost);
	pci_release_regions(pdev);
	pci_disable_device(pdev);
}

static void be2_shutdown(struct pci_dev *pdev)
{
	struct be2_hba *hba = pci_get_drvdata(pdev);

	/* quiet: no interrupt and no DMA across the reboot */
	be2_hw_intr(hba, false);
	pci_clear_master(pdev);
}

static const struct pci_device_id be2_ids[] = {
	{ PCI_DEVICE(BE2_VENDOR, BE2_DEVICE_BE2) },
	{ PCI_DEVICE(BE2_VENDOR, BE2_DEVICE_BE3) },
	{ }
};
MODULE_DEVICE_TABLE(pci, be2_ids);

static struct pci_driver be2_pci_driver = {
	.name = BE2_NAME, .id_table = be2_ids,
	.probe = be2_probe, .remove = be2_remove, .shutdown = be2_shutdown,
};

static int __init be2_init(void)
{
	int rc;

	be2_stt = iscsi_register_transport(&be2_transport);
	if (!be2_stt)
		return -ENODEV;
	rc = pci_register_driver(&be2_pci_driver);
	if (rc)
		iscsi_unregister_transport(&be2_transport);
	return rc;
}

static void __exit be2_exit(void)
{
	pci_unregister_driver(&be2_pci_driver);
	iscsi_unregister_transport(&be2_transport);
}

module_init(be2_init);
module_exit(be2_exit);

MODULE_DESCRIPTION("ServerEngines BladeEngine 2 iSCSI offload driver");
MODULE_LICENSE("GPL");
