// The bound of the embedding process's synchronous slice (src/sandbox/slice-watchdog.ts,
// docs/decisions.md D373): one watchdog thread in place of isolated-vm's timeout. isolated-vm
// makes a timer per call, and its timer thread wakes once per call's timer whether the call ended
// or not; this thread sleeps until the deadline of the one call armed now, so calls that end in
// time cost no wake-up of their own.
//
// Loaded twice from the same file: by Node (`require`: arm, disarm, forget, wakes) and into each
// isolate by isolated-vm's NativeModule (`InitForContext`), which registers that isolate's
// v8::Isolate* and answers its id and a sentinel. The sentinel is an external string the host
// keeps alive: V8 finalizes it when the isolate is torn down (also when isolated-vm disposes an
// isolate at its memory limit inside a call), before the isolate's memory goes, and its
// finalizer takes the isolate out of the registry and the slot under the same lock the watchdog
// holds while it touches an isolate. So the watchdog never touches a disposed isolate.
#include <node.h>
#include <v8.h>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#ifdef __linux__
#include <pthread.h>
#endif
#include <unordered_map>

namespace {
using Clock = std::chrono::steady_clock;

// Made once and never destroyed: the watchdog's thread may be waiting on `cv` when the process
// exits, and destroying a condition variable a thread waits on blocks the exit for ever (glibc).
std::mutex& mu = *new std::mutex;
std::condition_variable& cv = *new std::condition_variable;
std::unordered_map<uint32_t, v8::Isolate*>& registry = *new std::unordered_map<uint32_t, v8::Isolate*>;
uint32_t next_id = 1;

// The one call armed now: the embedding process makes one synchronous call at a time.
struct Slot {
  bool armed = false;
  v8::Isolate* isolate = nullptr;
  Clock::time_point deadline{};
  uint64_t gen = 0;
  uint64_t fired = 0;
} slot;

bool started = false;
bool sleeping_forever = false;
Clock::time_point last_armed{};
uint64_t wakes = 0;

// Runs on the isolate's thread at its next interrupt check: a request left over from a call that
// has ended finds another generation armed (or none) and does nothing.
void OnInterrupt(v8::Isolate* isolate, void* data) {
  const auto gen = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(data));
  std::lock_guard<std::mutex> lock(mu);
  if (slot.armed && slot.gen == gen && slot.isolate == isolate) isolate->TerminateExecution();
}

void Loop() {
#ifdef __linux__
  // Named so that an operator's `top -H` and a test reading /proc/PID/task/*/comm can tell it.
  pthread_setname_np(pthread_self(), "slice-watchdog");
#endif
  std::unique_lock<std::mutex> lock(mu);
  for (;;) {
    wakes++;
    const auto now = Clock::now();
    if (!slot.armed) {
      // Idle for a second: sleep until the next arm wakes this thread; busy: look again in 5 ms.
      if (now - last_armed > std::chrono::seconds(1)) {
        sleeping_forever = true;
        cv.wait(lock);
        sleeping_forever = false;
      } else {
        cv.wait_until(lock, now + std::chrono::milliseconds(5));
      }
      continue;
    }
    if (now < slot.deadline) {
      cv.wait_until(lock, slot.deadline);
      continue;
    }
    if (slot.fired != slot.gen) {
      slot.fired = slot.gen;
      slot.isolate->RequestInterrupt(OnInterrupt, reinterpret_cast<void*>(static_cast<uintptr_t>(slot.gen)));
    }
    // As isolated-vm's own timer does, again every ms: V8 may miss one request in optimized code.
    slot.isolate->TerminateExecution();
    cv.wait_until(lock, now + std::chrono::milliseconds(1));
  }
}

// Takes isolate `id` out of the registry, and out of the slot if it is armed for it. Under `mu`.
void Unregister(uint32_t id) {
  const auto it = registry.find(id);
  if (it == registry.end()) return;
  if (slot.isolate == it->second) {
    slot.armed = false;
    slot.isolate = nullptr;
  }
  registry.erase(it);
}

// Takes its isolate out of the registry and the slot when V8 finalizes it (teardown, or the host
// let go of it first: then the isolate is simply no longer watched, and `arm` answers false).
class Sentinel final : public v8::String::ExternalOneByteStringResource {
 public:
  explicit Sentinel(uint32_t id) : id_(id) {}
  const char* data() const override { return "slice-watchdog"; }
  size_t length() const override { return 14; }
  void Dispose() override {
    {
      std::lock_guard<std::mutex> lock(mu);
      Unregister(id_);
    }
    delete this;
  }

 private:
  const uint32_t id_;
};

uint32_t Uint(const v8::FunctionCallbackInfo<v8::Value>& info, int i) {
  return info[i]->Uint32Value(info.GetIsolate()->GetCurrentContext()).FromMaybe(0);
}

// arm(id, ms): the call about to be made into isolate `id` ends within `ms`. False for an unknown id.
void Arm(const v8::FunctionCallbackInfo<v8::Value>& info) {
  const uint32_t id = Uint(info, 0);
  const uint32_t ms = Uint(info, 1);
  std::lock_guard<std::mutex> lock(mu);
  const auto it = registry.find(id);
  if (it == registry.end()) return info.GetReturnValue().Set(false);
  slot.armed = true;
  slot.isolate = it->second;
  slot.gen++;
  last_armed = Clock::now();
  slot.deadline = last_armed + std::chrono::milliseconds(ms);
  if (!started) {
    started = true;
    std::thread(Loop).detach();
  } else if (sleeping_forever) {
    cv.notify_one();
  }
  info.GetReturnValue().Set(true);
}

// disarm(): the call has returned. True when the watchdog terminated it; the termination it may
// have left pending is cancelled, so the isolate runs the next call. (An isolate torn down during
// the call has left the slot already: false, and the caller sees its disposal.)
void Disarm(const v8::FunctionCallbackInfo<v8::Value>& info) {
  std::lock_guard<std::mutex> lock(mu);
  const bool fired = slot.armed && slot.fired == slot.gen;
  if (fired) slot.isolate->CancelTerminateExecution();
  slot.armed = false;
  slot.isolate = nullptr;
  info.GetReturnValue().Set(fired);
}

// forget(id): the host is done with the isolate (before it disposes it).
void Forget(const v8::FunctionCallbackInfo<v8::Value>& info) {
  const uint32_t id = Uint(info, 0);
  std::lock_guard<std::mutex> lock(mu);
  Unregister(id);
}

// wakes(): how often the watchdog thread has woken, for the bench.
void Wakes(const v8::FunctionCallbackInfo<v8::Value>& info) {
  std::lock_guard<std::mutex> lock(mu);
  info.GetReturnValue().Set(static_cast<double>(wakes));
}
}  // namespace

extern "C" void InitForContext(v8::Isolate* isolate, v8::Local<v8::Context> context, v8::Local<v8::Object> target) {
  uint32_t id;
  {
    std::lock_guard<std::mutex> lock(mu);
    id = next_id++;
  }
  // Without its sentinel an isolate is not registered: the host finds no id and keeps
  // isolated-vm's timeout for it.
  auto* resource = new Sentinel(id);
  v8::Local<v8::String> sentinel;
  if (!v8::String::NewExternalOneByte(isolate, resource).ToLocal(&sentinel)) {
    delete resource;
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    registry[id] = isolate;
  }
  target->Set(context, v8::String::NewFromUtf8Literal(isolate, "sentinel"), sentinel).Check();
  target->Set(context, v8::String::NewFromUtf8Literal(isolate, "id"), v8::Integer::NewFromUnsigned(isolate, id)).Check();
}

NODE_MODULE_INIT() {
  v8::Isolate* isolate = context->GetIsolate();
  const auto set = [&](const char* name, v8::FunctionCallback f) {
    exports
        ->Set(context, v8::String::NewFromUtf8(isolate, name).ToLocalChecked(),
              v8::FunctionTemplate::New(isolate, f)->GetFunction(context).ToLocalChecked())
        .Check();
  };
  set("arm", Arm);
  set("disarm", Disarm);
  set("forget", Forget);
  set("wakes", Wakes);
}
