-- Issue #38 item 9: free-text events staff type stay internal unless marked 'visible para el cliente';
-- the ones already written stay internal (the public timeline had shown them by mistake).
ALTER TABLE "shipment_events" ADD COLUMN "visible_to_customer" boolean DEFAULT false NOT NULL;
