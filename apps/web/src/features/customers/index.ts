// What other features may use from customers (DESIGN.md section 2: never reach into internals).
export { CustomerPicker, type CustomerPickerProps } from './components/CustomerPicker.tsx';
