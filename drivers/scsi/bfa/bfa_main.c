// SPDX-License-Identifier: GPL-2.0
/*
 * Brocade Fibre Channel HBA driver: PCI probe and removal, the module.
 *
 * Each PCI function of a Crossbow ASIC is one FC port; probe maps its
 * registers, loads the firmware image, hooks its interrupts and brings
 * its IOC up.
 */
#include <linux/dma-mapping.h>
#include <linux/firmware.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "bfa.h"

static bool msix = true;
module_param(msix, bool, 0444);
MODULE_PARM_DESC(msix, "use MSI-X interrupts when the system offers them (default: true)");

static int bfa_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	unsigned int fn = PCI_FUNC(pdev->devfn);
	struct bfa_port *port;
	int err;

	/* the two register sets of the ASIC serve functions 0 and 1 */
	if (fn > 1)
		return -ENODEV;
	port = devm_kzalloc(&pdev->dev, sizeof(*port), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	port->pdev = pdev;
	port->fn = fn;
	port->removing = true;		/* no recovery before the IOC starts */
	mutex_init(&port->mbox_lock);
	mutex_init(&port->ioc_lock);
	init_completion(&port->mbox_done);

	err = pcim_enable_device(pdev);
	if (err)
		return err;
	err = pcim_iomap_regions(pdev, BIT(0), BFA_NAME);
	if (err)
		return err;
	port->bar = pcim_iomap_table(pdev)[0];
	pci_set_master(pdev);
	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (err) {
		dev_err(&pdev->dev, "no 64-bit DMA\n");
		return err;
	}
	port->attr = dmam_alloc_coherent(&pdev->dev, sizeof(*port->attr),
					 &port->attr_dma, GFP_KERNEL);
	if (!port->attr)
		return -ENOMEM;
	err = bfa_queue_alloc(port);
	if (!err)
		err = bfa_els_alloc(port);
	if (!err)
		err = bfa_io_alloc(port);
	if (err)
		return err;

	err = request_firmware(&port->fw, BFA_FW_CB, &pdev->dev);
	if (err) {
		dev_err(&pdev->dev, "firmware %s not loaded: %d\n", BFA_FW_CB,
			err);
		return err;
	}
	err = bfa_hw_irq_setup(port, msix);
	if (err) {
		dev_err(&pdev->dev, "no interrupt: %d\n", err);
		goto release_fw;
	}
	pci_set_drvdata(pdev, port);
	err = bfa_ioc_start(port);
	if (err)
		goto stop;
	err = bfa_fc_attach(port);
	if (err)
		goto stop;
	return 0;

stop:
	bfa_ioc_stop(port);
	bfa_hw_irq_teardown(port);
	cancel_work_sync(&port->recover_work);
release_fw:
	release_firmware(port->fw);
	return err;
}

static void bfa_remove(struct pci_dev *pdev)
{
	struct bfa_port *port = pci_get_drvdata(pdev);

	bfa_fc_detach(port);
	bfa_ioc_stop(port);
	bfa_hw_irq_teardown(port);
	/* an error interrupt may have queued a recovery meanwhile */
	cancel_work_sync(&port->recover_work);
	release_firmware(port->fw);
}

static void bfa_shutdown(struct pci_dev *pdev)
{
	struct bfa_port *port = pci_get_drvdata(pdev);

	bfa_ioc_stop(port);
	bfa_hw_irq_on(port, false);
}

/* the Crossbow ASIC: two ports, one per PCI function */
static const struct pci_device_id bfa_pci_ids[] = {
	{ PCI_VDEVICE(BROCADE, BFA_DEVICE_CB_2PORT) },
	{ }
};

static struct pci_driver bfa_pci_driver = {
	.name = BFA_NAME, .id_table = bfa_pci_ids,
	.probe = bfa_probe, .remove = bfa_remove, .shutdown = bfa_shutdown,
};

static int __init bfa_init(void)
{
	int err = bfa_fc_init();

	if (err)
		return err;
	err = pci_register_driver(&bfa_pci_driver);
	if (err)
		bfa_fc_exit();
	return err;
}
module_init(bfa_init);

static void __exit bfa_exit(void)
{
	pci_unregister_driver(&bfa_pci_driver);
	bfa_fc_exit();
}
module_exit(bfa_exit);
MODULE_DEVICE_TABLE(pci, bfa_pci_ids);
MODULE_DESCRIPTION("Brocade Fibre Channel HBA driver");
MODULE_LICENSE("GPL");
MODULE_FIRMWARE(BFA_FW_CB);
