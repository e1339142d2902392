/* The fast path's frame scanner in C: the loop of proxy/protocol/frame_scan.py's
 * ``scan_py``, the pure-Python reference it must agree with on every input
 * (tests/proxy/test_frame_scan.py feeds both the same streams, cut anywhere and
 * corrupted).
 *
 * How this works: ``scan(buf, pos, compressed, table, max_frame, entities)`` walks
 * the whole frames buffered from ``pos`` and stops at the first one somebody must
 * see, at a frame that is not whole yet, or at anything malformed; it returns
 * ``(stop, skipped)``. It never raises for bad input: the caller reads the frame
 * at ``stop`` with the Python framer, which names the error. So a malformed frame
 * still closes its one connection with the same reason as before, and the work is
 * one pass over the bytes. A compressed frame's packet id is learnt by inflating
 * one byte with a z_stream kept for the process (inflateReset, no allocation).
 * ``table[id]``: 0 forward unseen, 1 surface, 2 surface only when the entity id
 * (the VarInt after the packet id) is in ``entities``.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <zlib.h>

#define MAX_UNCOMPRESSED (1 << 23)
#define MAX_DEFLATE_RATIO 1040

/* One inflater for the process: scan() holds the GIL from start to end, so no two
 * calls ever use it at once. */
static z_stream inflater;
static int inflater_ready = 0;

/* A VarInt of at most five bytes read as proxy/protocol/wire.py reads it (the value
 * wraps to signed 32 bits the same way). 0 when truncated or longer than 5 bytes. */
static int read_varint(const unsigned char *p, Py_ssize_t end, Py_ssize_t *pos, int64_t *value)
{
    int64_t result = 0;
    int shift = 0;
    Py_ssize_t i = *pos;
    for (int n = 0; n < 5; n++) {
        if (i >= end)
            return 0;
        unsigned char byte = p[i++];
        result |= (int64_t)(byte & 0x7F) << shift;
        if (!(byte & 0x80)) {
            if (result >= ((int64_t)1 << 31))
                result -= ((int64_t)1 << 32);
            *value = result;
            *pos = i;
            return 1;
        }
        shift += 7;
    }
    return 0;
}

/* The first byte of a zlib stream, or -1 when zlib reports an error or gives nothing. */
static int first_inflated_byte(const unsigned char *data, Py_ssize_t size)
{
    if (!inflater_ready) {
        inflater.zalloc = Z_NULL;
        inflater.zfree = Z_NULL;
        inflater.opaque = Z_NULL;
        if (inflateInit(&inflater) != Z_OK)
            return -1;
        inflater_ready = 1;
    } else if (inflateReset(&inflater) != Z_OK) {
        return -1;
    }
    unsigned char out;
    inflater.next_in = (Bytef *)data;
    inflater.avail_in = size > (Py_ssize_t)UINT32_MAX ? UINT32_MAX : (uInt)size;
    inflater.next_out = &out;
    inflater.avail_out = 1;
    int rc = inflate(&inflater, Z_SYNC_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
        return -1;
    if (inflater.avail_out != 0)
        return -1;
    return out;
}

static PyObject *scan(PyObject *self, PyObject *args)
{
    Py_buffer view, table;
    Py_ssize_t pos, max_frame;
    int compressed;
    PyObject *entities;
    if (!PyArg_ParseTuple(args, "y*npy*nO:scan", &view, &pos, &compressed, &table, &max_frame, &entities))
        return NULL;
    const unsigned char *p = view.buf;
    const unsigned char *tbl = table.buf;
    Py_ssize_t end = view.len, table_size = table.len, skipped = 0;
    if (pos < 0)
        pos = end;
    while (pos < end) {
        /* The length prefix: at most 3 bytes, non-zero, within max_frame, all here. */
        uint32_t length = 0;
        int shift = 0, whole = 0;
        Py_ssize_t i = pos;
        while (i < end && shift < 21) {
            unsigned char byte = p[i++];
            length |= (uint32_t)(byte & 0x7F) << shift;
            if (!(byte & 0x80)) {
                whole = 1;
                break;
            }
            shift += 7;
        }
        if (!whole || length == 0 || (Py_ssize_t)length > max_frame || (Py_ssize_t)length > end - i)
            break;
        Py_ssize_t frame_end = i + length, id_at = i;
        int pid;
        if (compressed) {
            int64_t declared;
            if (!read_varint(p, frame_end, &id_at, &declared))
                break;
            if (declared != 0) {
                Py_ssize_t packed = frame_end - id_at;
                if (declared < 0 || declared > MAX_UNCOMPRESSED || declared > (int64_t)packed * MAX_DEFLATE_RATIO + 64)
                    break;
                pid = first_inflated_byte(p + id_at, packed);
                if (pid < 0)
                    break;
                id_at = -1; /* the payload is deflated: nothing after the id is read here */
            } else {
                if (id_at >= frame_end)
                    break;
                pid = p[id_at++];
            }
        } else {
            pid = p[id_at++];
        }
        if (pid >= 0x80 || pid >= table_size)
            break;
        unsigned char want = tbl[pid];
        if (want == 2 && id_at >= 0 && entities != Py_None) {
            int64_t eid;
            if (!read_varint(p, frame_end, &id_at, &eid))
                break;
            PyObject *key = PyLong_FromLongLong(eid);
            if (key == NULL)
                break;
            int held = PySequence_Contains(entities, key);
            Py_DECREF(key);
            if (held != 0) /* a player's (or the container failed: raised below) */
                break;
        } else if (want != 0) {
            break;
        }
        pos = frame_end;
        skipped++;
    }
    PyBuffer_Release(&view);
    PyBuffer_Release(&table);
    if (PyErr_Occurred())
        return NULL;
    return Py_BuildValue("nn", pos, skipped);
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS,
     "scan(buf, pos, compressed, table, max_frame, entities) -> (stop, skipped)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "proxy.protocol._framescan", NULL, -1, methods,
};

PyMODINIT_FUNC PyInit__framescan(void)
{
    return PyModule_Create(&module);
}
