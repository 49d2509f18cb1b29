// The one place the client imports its rendering library (vendored Preact + htm, no build step).
import { h, render } from "preact";
import { useEffect, useRef, useState, useReducer, useLayoutEffect, useMemo } from "preact/hooks";
import htm from "htm";

export const html = htm.bind(h);
export { h, render, useEffect, useRef, useState, useReducer, useLayoutEffect, useMemo };
