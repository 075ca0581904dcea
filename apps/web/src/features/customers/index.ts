// What other features may use from customers (DESIGN.md section 2: never reach into internals).
export { CustomerPicker, type CustomerPickerProps } from './components/CustomerPicker.tsx';
export { useLookup as useDocumentLookup, type LookupKind } from './api/lookup-document.ts';
