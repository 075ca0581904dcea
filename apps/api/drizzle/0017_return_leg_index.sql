CREATE UNIQUE INDEX "shipments_return_of_uq" ON "shipments" USING btree ("return_of_shipment_id") WHERE "shipments"."return_of_shipment_id" is not null;
