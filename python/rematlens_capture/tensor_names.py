"""One trace name per live tensor object, and the names whose tensors died since the last look."""

import weakref


def storage_key(tensor):
    """Identity of the memory behind a tensor (its StorageImpl), or None when it has none."""
    try:
        storage = tensor.storage()
        return storage._cdata if storage.nbytes() > 0 else None
    except (RuntimeError, NotImplementedError):
        return None


def storage_bytes(tensor):
    try:
        return tensor.storage().nbytes()
    except (RuntimeError, NotImplementedError):
        return tensor.numel() * tensor.element_size()


class TensorNames:
    """Names are x0, x1, ... in order of first appearance. A tensor's name dies with its Python
    object: PyTorch keeps that object alive for as long as C++ (autograd's saved variables, a
    parameter's .grad) holds the tensor, so a weak-reference callback marks the exact moment the
    tensor is freed. Deaths are queued and handed out in name order, so the trace never depends on
    when in an instruction block a callback ran."""

    def __init__(self):
        self._name_of_object = {}      # id(tensor) -> name
        self._weakrefs = {}            # name -> weakref (keeps the callback alive)
        self._storage_of = {}          # name -> storage key
        self._names_on_storage = {}    # storage key -> live names, in binding order
        self._index = {}               # name -> number, for ordering
        self._dead = []
        self.shapes = {}               # name -> (shape, dtype), for the side file
        self._closed = False

    def name_of(self, tensor):
        return self._name_of_object.get(id(tensor))

    def live_names(self):
        return sorted(self._weakrefs, key=self._index.__getitem__)

    def live_name_on_storage(self, tensor):
        """The first-bound live name sharing this tensor's memory, or None."""
        key = storage_key(tensor)
        names = self._names_on_storage.get(key) if key is not None else None
        return names[0] if names else None

    def bind(self, tensor):
        name = "x%d" % len(self._index)
        self._index[name] = len(self._index)
        object_id = id(tensor)
        self._name_of_object[object_id] = name
        self._weakrefs[name] = weakref.ref(tensor, lambda _ref: self._died(object_id, name))
        key = storage_key(tensor)
        self._storage_of[name] = key
        if key is not None:
            self._names_on_storage.setdefault(key, []).append(name)
        self.shapes[name] = (list(tensor.shape), str(tensor.dtype).replace("torch.", ""))
        return name

    def take_dead(self):
        """The names that died since the last call, in name order; they are forgotten."""
        dead = sorted(self._dead, key=self._index.__getitem__)
        self._dead = []
        return dead

    def forget(self, name):
        """Drops a live name on purpose (the end of a capture)."""
        self._weakrefs.pop(name, None)
        self._name_of_object = {k: v for k, v in self._name_of_object.items() if v != name}
        self._unlink_storage(name)

    def close(self):
        """Later deaths are no longer recorded."""
        self._closed = True
        self._weakrefs.clear()

    def _died(self, object_id, name):
        if self._closed or name not in self._weakrefs:
            return
        del self._weakrefs[name]
        if self._name_of_object.get(object_id) == name:
            del self._name_of_object[object_id]
        self._unlink_storage(name)
        self._dead.append(name)

    def _unlink_storage(self, name):
        key = self._storage_of.get(name)
        names = self._names_on_storage.get(key)
        if names and name in names:
            names.remove(name)
            if not names:
                del self._names_on_storage[key]
