// The lines the gateway suite's child processes print on stderr for the suite to read.

/** A proxy's answer to SIGUSR2: its CPU time and memory, as JSON. */
export const STATS_MARK = "@@STATS ";
/** An HTTP proxy or upstream is listening at the URL that follows. */
export const LISTENING_MARK = "LISTENING ";
